import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from '../kysely/schema.js';
import { classifyingPool } from './unavailable.js';

/**
 * Which of a process's pools a connection came from: records (short reads and writes), search (questions' lexical
 * searches) or reads (the history page and the ownership check, one short statement each).
 */
export type PoolName = 'records' | 'search' | 'reads';

/** A pg pool and the kysely handle over it; `waited` hears how long each checkout waited for a free connection. */
export interface ConnectionPool {
  readonly name: PoolName;
  readonly pool: pg.Pool;
  readonly db: Kysely<DatabaseSchema>;
  /** Connections open, idle, and checkouts waiting for one, now. */
  stats(): { total: number; idle: number; waiting: number };
}

export function openConnectionPool(
  name: PoolName,
  url: string,
  size: number,
  waited: (pool: PoolName, seconds: number) => void,
): ConnectionPool {
  // Failures to reach the server leave as UpstreamUnavailableError('database'): 503 with Retry-After, not 500.
  const pool = classifyingPool(new pg.Pool({ connectionString: url, max: size }));
  // An idle client that loses its connection (server restart) emits 'error' on the pool; without a listener it would
  // crash the process. The next query gets a fresh connection.
  pool.on('error', () => {});
  // Kysely checks a connection out for each query (or transaction): timing that checkout is the pool's queueing delay.
  const timed = {
    async connect() {
      const start = performance.now();
      const client = await pool.connect();
      waited(name, (performance.now() - start) / 1000);
      return client;
    },
    end: () => pool.end(),
  };
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: timed }) });
  return { name, pool, db, stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) };
}
