import type pg from 'pg';
import { RecordsUnavailableError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import { unreachableCode } from '../system/network-errors.js';

/**
 * SQLSTATEs of a server that is going away or not accepting connections yet: class 08 (connection exception), 57P01
 * admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, recovering), 53300 too many connections.
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;

/** What pg says when a connection broke under a query, or the pool could not get one. */
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i;

/** Why `error` means "PostgreSQL is not there at the moment", or undefined when it is a failure of the statement. */
export function postgresUnavailableReason(error: unknown): string | undefined {
  if (error instanceof UpstreamUnavailableError) return undefined;
  const network = unreachableCode(error);
  if (network) return network;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_STATE.test(code)) return `SQLSTATE ${code}`;
  if (error instanceof Error && UNAVAILABLE_MESSAGE.test(error.message)) return error.message;
  return undefined;
}

/** `error` as RecordsUnavailableError (503 naming "database") when it says PostgreSQL is unreachable, else itself. */
export function classifyPostgresError(error: unknown): unknown {
  const reason = postgresUnavailableReason(error);
  if (!reason) return error;
  return new RecordsUnavailableError(`The database is unavailable (${reason}); try again shortly`, { cause: error });
}

const classified = (error: unknown): never => {
  throw classifyPostgresError(error);
};

/**
 * A pg pool whose promise calls (`query`, `connect`, and `query` on a client it hands out) fail with
 * RecordsUnavailableError while PostgreSQL is down or restarting, so every caller (kysely's repositories, the queue,
 * the lexical index) reports an outage as 503 without knowing pg. Callback calls (pg-pool's own) are left as they are.
 */
export function classifyingPool(pool: pg.Pool): pg.Pool {
  const clients = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const classifyingClient = (client: pg.PoolClient): pg.PoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      wrapped = new Proxy(client, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property !== 'query') return typeof value === 'function' ? value.bind(target) : value;
          return (...args: unknown[]) => {
            const result = (value as (...a: unknown[]) => unknown).apply(target, args);
            return result instanceof Promise ? result.catch(classified) : result; // a cursor or a callback call
          };
        },
      });
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  // A checked-out connection the server terminates between two statements (a transaction's, a held client's) emits
  // 'error' with no pool listener on it: that would crash the process. Its next query fails instead (classified
  // below), and the pool drops it at release as no longer queryable.
  pool.on('connect', (client) => void client.on('error', () => {}));
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  return Object.assign(pool, {
    query: (...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise ? result.catch(classified) : result;
    },
    connect: (...args: unknown[]) => {
      if (args.length > 0) return connect(...args);
      return (connect() as Promise<pg.PoolClient>).then(classifyingClient, classified);
    },
  }) as pg.Pool;
}
