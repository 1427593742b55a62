import path from 'node:path';
import { ContainerModule } from 'inversify';
import * as v from 'valibot';
import type { Clock, IdGenerator } from '../../core/ports/clock-and-ids.js';
import type { Logger } from '../../core/ports/logger.js';
import type { StorageSpace } from '../../core/ports/storage-space.js';
import { DiskSpace } from '../../adapters/system/disk-space.js';
import { LOG_LEVELS, PinoLogger } from '../../adapters/system/pino-logger.js';
import { RandomUuidGenerator, SystemClock } from '../../adapters/system/system.js';
import type { Config } from '../config.js';
import { ConfigError, optional, setting } from '../config/variables.js';
import { flag, httpUrl, portNumber, positiveInt, text, wholeNumber } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

export const PORT = setting('PORT', portNumber, 3000, 'TCP port of the HTTP API (0 picks a free one)');
const HOST = setting('HOST', text, '0.0.0.0', 'Address the HTTP API (and METRICS_PORT) listens on');
const DATA_DIR = setting('DATA_DIR', text, './data', 'Directory of the embedded database, local files and generated secrets');
const PUBLIC_URL = optional('PUBLIC_URL', httpUrl, 'Where clients reach this service: local upload URLs and `doc-chat open` name it', { defaultText: 'the address each request came to; `doc-chat open`: http://localhost:PORT' });
// 128 MiB: the last upload accepted above it may still bring 50 MB (MAX_FILE_SIZE) and its ingestion about as much
// again in text and index; the held eighth (16 MiB) is far more than a failure record needs, and enough for the
// database's share of a deletion whose files free nothing (a document another session holds too).
const DISK_RESERVE_BYTES = setting('DISK_RESERVE_BYTES', wholeNumber(Number.MAX_SAFE_INTEGER), 134_217_728,
  'Free space of DATA_DIR below which new uploads and ingests are refused with 507 (0: not watched); an eighth of it is held in DATA_DIR/disk-reserve and released when a deletion or a job\'s failure record finds the disk full');
const CORS_ORIGINS = setting('CORS_ORIGINS', text, '*', 'Browser origins allowed to call the API, comma-separated, or *');
const LOG_LEVEL = setting('LOG_LEVEL', v.pipe(v.string(), v.toLowerCase(), v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`)), 'info', 'Least severe log level written (pino level names)');
const HTTP_HEADERS_TIMEOUT_MS = setting('HTTP_HEADERS_TIMEOUT_MS', positiveInt(600_000), 10_000, 'Longest wait for a request\'s headers; also closes a connection that never sends one');
const HTTP_BODY_TIMEOUT_MS = setting('HTTP_BODY_TIMEOUT_MS', positiveInt(3_600_000), 30_000, 'Longest wait for an API request\'s body');
const UPLOAD_BODY_TIMEOUT_MS = setting('UPLOAD_BODY_TIMEOUT_MS', positiveInt(24 * 3_600_000), 15 * 60_000, 'Longest wait for a local upload\'s body (slow links)');
const HTTP_IDLE_TIMEOUT_MS = setting('HTTP_IDLE_TIMEOUT_MS', positiveInt(3_600_000), 5_000, 'How long an idle keep-alive connection stays open');
const MAX_CONNECTIONS_PER_CLIENT = setting('MAX_CONNECTIONS_PER_CLIENT', positiveInt(100_000), 64, 'Open connections one client address may hold (behind TRUST_PROXY: requests in progress per forwarded address); one more is answered 503 with Retry-After');
const MAX_CONNECTIONS = setting('MAX_CONNECTIONS', positiveInt(1_000_000), 1000, 'Open connections from all clients together; one more is answered 503 with Retry-After (keep it under the open-file limit, ulimit -n)');
const AUTH_FAILURES_PER_MINUTE = setting('AUTH_FAILURES_PER_MINUTE', positiveInt(1_000_000), 30, 'Refused authentications per client address and minute before it gets 429');
const TRUST_PROXY = setting('TRUST_PROXY', flag, false, 'A reverse proxy in front: the client address is the last X-Forwarded-For entry, the address it reached X-Forwarded-Host and -Proto');

export interface HttpLimits {
  /** Longest wait for a request's headers; also closes a connection that never sends one. */
  headersTimeoutMs: number;
  /** Longest wait for an API request's body (JSON, at most 1 MB). */
  bodyTimeoutMs: number;
  /** Longest wait for a local upload's body (up to 50 MB over slow links). */
  uploadBodyTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  idleTimeoutMs: number;
  /**
   * Open connections one socket address may hold, or behind a trusted proxy requests in progress per forwarded address;
   * one more is answered 503 with Retry-After.
   */
  maxConnectionsPerClient: number;
  /** Open connections from all clients together; one more is answered 503 with Retry-After. */
  maxConnections: number;
  /** Refused authentications one client address may make per minute before it gets 429 for the rest of it. */
  authFailuresPerMinute: number;
  /** A reverse proxy in front: the client address is the last X-Forwarded-For entry, the address reached X-Forwarded-Host. */
  trustProxy: boolean;
}

export interface ServiceSection {
  port: number;
  host: string;
  dataDir: string;
  /** Free bytes of DATA_DIR below which uploads and ingests are refused; an eighth is held back for deletions. */
  diskReserveBytes: number;
  /** PUBLIC_URL, else http://localhost:PORT (what `doc-chat open` prints). */
  publicUrl: string;
  /**
   * No PUBLIC_URL: local upload URLs point to the address each request came to, so a browser on another machine (or
   * at 127.0.0.1 rather than localhost) uploads where it reached the app, not to its own localhost.
   */
  uploadUrlsAtRequestOrigin: boolean;
  corsOrigins: '*' | string[];
  /** The least severe log level written (pino's names). */
  logLevel: v.InferOutput<typeof LOG_LEVEL.schema>;
  /** Limits on what one client can hold or cost (README "Security"). */
  http: HttpLimits;
}

const DISK_SPACE = Symbol('DiskSpace');

/** The process itself: where it listens and keeps its data, its logger, clock and ids, the HTTP client limits. */
export const serviceModule: ServiceModule<ServiceSection> = {
  family: 'service',
  variables: [PORT, HOST, DATA_DIR, DISK_RESERVE_BYTES, PUBLIC_URL, CORS_ORIGINS, LOG_LEVEL, HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS,
    UPLOAD_BODY_TIMEOUT_MS, HTTP_IDLE_TIMEOUT_MS, MAX_CONNECTIONS_PER_CLIENT, MAX_CONNECTIONS, AUTH_FAILURES_PER_MINUTE, TRUST_PROXY],
  configure(env): ServiceSection {
    const port = env.read(PORT);
    const corsRaw = env.read(CORS_ORIGINS);
    const corsOrigins = corsRaw === '*' ? '*' : corsRaw.split(',').map((o) => o.trim()).filter(Boolean);
    if (corsOrigins !== '*') {
      for (const origin of corsOrigins) {
        if (!/^https?:\/\/[^/]+$/.test(origin)) throw new ConfigError('CORS_ORIGINS', `"${origin}" is not an origin such as https://app.example.com`);
      }
    }
    return {
      port,
      host: env.read(HOST),
      dataDir: path.resolve(env.read(DATA_DIR)),
      diskReserveBytes: env.read(DISK_RESERVE_BYTES),
      publicUrl: env.read(PUBLIC_URL, `http://localhost:${port}`),
      uploadUrlsAtRequestOrigin: !env.isSet(PUBLIC_URL),
      corsOrigins,
      logLevel: env.read(LOG_LEVEL),
      http: {
        headersTimeoutMs: env.read(HTTP_HEADERS_TIMEOUT_MS),
        bodyTimeoutMs: env.read(HTTP_BODY_TIMEOUT_MS),
        uploadBodyTimeoutMs: env.read(UPLOAD_BODY_TIMEOUT_MS),
        idleTimeoutMs: env.read(HTTP_IDLE_TIMEOUT_MS),
        maxConnectionsPerClient: env.read(MAX_CONNECTIONS_PER_CLIENT),
        maxConnections: env.read(MAX_CONNECTIONS),
        authFailuresPerMinute: env.read(AUTH_FAILURES_PER_MINUTE),
        trustProxy: env.read(TRUST_PROXY),
      },
    };
  },
  bindings: (config, given) =>
    new ContainerModule(({ bind }) => {
      bind<Config>(TOKENS.Config).toConstantValue(config);
      bind<Logger>(TOKENS.Logger).toConstantValue(given.logger ?? new PinoLogger({ level: config.logLevel }));
      bind<Clock>(TOKENS.Clock).toConstantValue(new SystemClock());
      bind<IdGenerator>(TOKENS.Ids).toConstantValue(new RandomUuidGenerator());
      // DATA_DIR's free space, whichever families keep their data there (the records and files of the embedded stack).
      bind<DiskSpace>(DISK_SPACE).toDynamicValue((ctx) =>
        new DiskSpace({
          directory: config.dataDir, reserveBytes: config.diskReserveBytes, logger: ctx.get<Logger>(TOKENS.Logger),
          reclaim: ctx.get<() => Promise<void>>(TOKENS.SpaceReclaimer, { optional: true }),
        }),
      );
      bind<StorageSpace>(TOKENS.StorageSpace).toDynamicValue((ctx) => ctx.get<DiskSpace>(DISK_SPACE));
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => {
        const space = ctx.get<DiskSpace>(DISK_SPACE);
        return { name: 'disk space (DATA_DIR)', init: () => space.init(), close: () => space.settled() };
      });
    }),
  started: (config) => ({ dataDir: config.dataDir }),
};
