import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { LOG_LEVELS, type LogLevel } from '../adapters/system/pino-logger.js';
import { DEFAULT_EXTRACTION_NICENESS, DEFAULT_EXTRACTION_SETTINGS, DEFAULT_PROCESS_LIMITS } from '../adapters/extraction/index.js';

/** Everything the service can be told, decided once at start. The only module that reads process.env. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  corsOrigins: '*' | string[];
  /** Where records and the lexical index live: SQLite in DATA_DIR, or PostgreSQL (DATABASE_URL) shared by instances. */
  records: { kind: 'sqlite' } | { kind: 'postgres'; url: string; poolSize: number };
  /**
   * What this process does (ROLE): `serve` answers HTTP and enqueues ingest jobs, `worker` runs them (no HTTP), `all`
   * both. `serve` and `worker` need DATABASE_URL: their queue is the one in PostgreSQL that every process shares.
   */
  role: 'all' | 'serve' | 'worker';
  /** The shared queue's timing (PostgreSQL mode): how often a worker looks for jobs, and its lease on a running one. */
  queue: { pollIntervalMs: number; leaseSeconds: number };
  auth: { kind: 'local'; jwtSecret?: string } | { kind: 'supabase'; url: string; anonKey: string; refusalCacheMs: number };
  blobs: { kind: 'local' } | { kind: 'minio'; endpoint: string; accessKey: string; secretKey: string; bucket: string; publicUrl?: string };
  index: { kind: 'sqlite' } | { kind: 'chroma'; url: string; collection: string };
  models:
    | { kind: 'extractive' }
    | { kind: 'ollama'; url: string; chatModel: string; embedModel: string; timeoutMs: number };
  /** Documents processed at once; extraction itself runs in `extractionWorkers` child processes. */
  ingestConcurrency: number;
  /** Documents of one user processed at once (users take turns for the rest). */
  ingestPerUserConcurrency: number;
  /** Default: ingestConcurrency, so a document that starts is extracted at once, not behind another user's. */
  extractionWorkers: number;
  /** How much nicer (lower CPU priority, 0-19) extraction processes run than the service: API requests go first. */
  extractionNiceness: number;
  /** Per-user limits on uploads (USER_STORAGE_QUOTA_BYTES, MAX_PENDING_UPLOADS). */
  uploadLimits: { storageQuotaBytes: number; maxPendingUploads: number };
  /** How often uploads never ingested are swept (UPLOAD_SWEEP_INTERVAL_MS). */
  uploadSweepIntervalMs: number;
  /** The least severe log level written (pino's names). */
  logLevel: LogLevel;
  /** Limits of document extraction; a document that hits one fails with a reason naming it (or loses OCR'd pages). */
  extraction: ExtractionLimits;
  /** Limits on what one client can hold or cost (README "Security"). */
  http: HttpLimits;
  /**
   * GET /metrics: on the API port, or on a port of its own (METRICS_PORT; the only way to scrape a worker), public
   * unless METRICS_TOKEN is set.
   */
  metrics: { port?: number; token?: string };
  /** Questions' CPU work off the request thread, and fair shares of it (readAnswering below). */
  answering: AnsweringSettings;
}

export interface HttpLimits {
  /** Longest wait for a request's headers; also closes a connection that never sends one. */
  headersTimeoutMs: number;
  /** Longest wait for an API request's body (JSON, at most 1 MB). */
  bodyTimeoutMs: number;
  /** Longest wait for a local upload's body (up to 50 MB over slow links). */
  uploadBodyTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  idleTimeoutMs: number;
  /** Open connections one socket address may hold; more are closed at once. */
  maxConnectionsPerClient: number;
  /** Refused authentications one client address may make per minute before it gets 429 for the rest of it. */
  authFailuresPerMinute: number;
  /** Take the client address from the last X-Forwarded-For entry (a reverse proxy in front), not the socket. */
  trustProxy: boolean;
}


export interface ExtractionLimits {
  maxPages: number;
  maxOcrPages: number;
  pageTimeoutMs: number;
  msPerPage: number;
  maxPdfImagePixels: number;
  maxMemoryMb: number;
  recycleAfterPages: number;
  idleMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULTS = {
  port: 3000,
  dataDir: './data',
  minioBucket: 'documents',
  chromaCollection: 'doc_chat_chunks',
  ollamaChatModel: 'llama3.2:3b',
  ollamaEmbedModel: 'nomic-embed-text',
  ollamaTimeoutMs: 120_000,
  databasePoolSize: 10,
  queuePollIntervalMs: 1000,
  queueLeaseSeconds: 60,
  supabaseRefusalCacheMs: 30_000,
  httpHeadersTimeoutMs: 10_000,
  httpBodyTimeoutMs: 30_000,
  uploadBodyTimeoutMs: 15 * 60_000,
  httpIdleTimeoutMs: 5_000,
  maxConnectionsPerClient: 64,
  authFailuresPerMinute: 30,
  userStorageQuotaBytes: 1_073_741_824,
  maxPendingUploads: 20,
  uploadSweepIntervalMs: 600_000,
  extraction: {
    maxPages: DEFAULT_EXTRACTION_SETTINGS.maxPages,
    maxOcrPages: DEFAULT_EXTRACTION_SETTINGS.maxOcrPages,
    maxPdfImagePixels: DEFAULT_EXTRACTION_SETTINGS.maxPdfImagePixels,
    ...DEFAULT_PROCESS_LIMITS,
  } satisfies ExtractionLimits,
};

/** The variables the service reads; the compose file and .env.example may set only these. */
export const CONFIG_VARIABLES = [
  'PORT', 'HOST', 'DATA_DIR', 'PUBLIC_URL', 'CORS_ORIGINS', 'AUTH_JWT_SECRET', 'SUPABASE_URL', 'SUPABASE_ANON_KEY',
  'MINIO_ENDPOINT', 'MINIO_ACCESS_KEY', 'MINIO_SECRET_KEY', 'MINIO_BUCKET', 'MINIO_PUBLIC_URL',
  'CHROMA_URL', 'CHROMA_COLLECTION', 'OLLAMA_URL', 'OLLAMA_CHAT_MODEL', 'OLLAMA_EMBED_MODEL', 'OLLAMA_TIMEOUT_MS',
  'INGEST_CONCURRENCY', 'EXTRACTION_WORKERS', 'INGEST_PER_USER_CONCURRENCY', 'LOG_LEVEL', 'DATABASE_URL', 'DATABASE_POOL_SIZE',
  'ROLE', 'QUEUE_POLL_INTERVAL_MS', 'QUEUE_LEASE_SECONDS',
  'SUPABASE_REFUSAL_CACHE_MS', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_BODY_TIMEOUT_MS', 'UPLOAD_BODY_TIMEOUT_MS', 'HTTP_IDLE_TIMEOUT_MS',
  'MAX_CONNECTIONS_PER_CLIENT', 'AUTH_FAILURES_PER_MINUTE', 'TRUST_PROXY',
  'USER_STORAGE_QUOTA_BYTES', 'MAX_PENDING_UPLOADS', 'UPLOAD_SWEEP_INTERVAL_MS',
  'MAX_DOCUMENT_PAGES', 'MAX_OCR_PAGES', 'EXTRACTION_PAGE_TIMEOUT_MS', 'EXTRACTION_MS_PER_PAGE', 'PDF_MAX_IMAGE_PIXELS',
  'EXTRACTION_MAX_MEMORY_MB', 'EXTRACTION_RECYCLE_PAGES', 'EXTRACTION_IDLE_MS', 'EXTRACTION_NICENESS',
  'METRICS_PORT', 'METRICS_TOKEN',
  'ANSWER_POOL_THREADS', 'ANSWER_QUEUE_LIMIT', 'MAX_QUESTIONS_PER_USER',
] as const;

type Env = Record<string, string | undefined>;

const httpUrl = v.pipe(
  v.string(),
  v.url('must be a URL such as http://host:port'),
  v.check((s) => /^https?:\/\//.test(s), 'must start with http:// or https://'),
);
const portNumber = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535, 'must be at most 65535'));
const positiveInt = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${max}`));
const wholeNumber = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.maxValue(max, `must be at most ${max}`));
const flag = v.pipe(
  v.string(),
  v.transform((s) => s.toLowerCase()),
  v.picklist(['true', 'false', '1', '0'], 'must be true or false'),
  v.transform((s) => s === 'true' || s === '1'),
);
const postgresUrl = v.pipe(
  v.string(),
  v.check((s) => /^postgres(ql)?:\/\/[^\s]+$/.test(s) && URL.canParse(s), 'must be a URL such as postgres://user:password@host:5432/database'),
);
const collectionName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/, 'must be 3-63 characters of letters, digits, . _ -'));

/** Variables whose value is a credential: an error names the variable but never repeats the value (logs keep it). */
const SECRET_VARIABLES = new Set(['AUTH_JWT_SECRET', 'DATABASE_URL', 'MINIO_SECRET_KEY', 'SUPABASE_ANON_KEY', 'METRICS_TOKEN']);

function read<T>(env: Env, name: string, schema: v.GenericSchema<string, T>, fallback?: T): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const result = v.safeParse(schema, raw.trim());
  if (!result.success) {
    throw new ConfigError(name, SECRET_VARIABLES.has(name) ? result.issues[0].message : `${result.issues[0].message} (got "${raw}")`);
  }
  return result.output;
}

function requireTogether(env: Env, names: string[]): boolean {
  const set = names.filter((n) => env[n]?.trim());
  if (set.length === 0) return false;
  const missing = names.find((n) => !env[n]?.trim());
  if (missing) throw new ConfigError(missing, `must be set together with ${set.join(', ')}`);
  return true;
}

function forbidWithout(env: Env, dependents: string[], anchor: string): void {
  const stray = dependents.find((n) => env[n]?.trim());
  if (stray) throw new ConfigError(stray, `has no effect without ${anchor}; set ${anchor} or remove ${stray}`);
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export function loadConfig(env: Env = process.env): Config {
  const port = read(env, 'PORT', portNumber, DEFAULTS.port)!;
  const host = read(env, 'HOST', v.string(), '0.0.0.0')!;
  const dataDir = path.resolve(read(env, 'DATA_DIR', v.string(), DEFAULTS.dataDir)!);
  const publicUrl = stripSlash(read(env, 'PUBLIC_URL', httpUrl, `http://localhost:${port}`)!);
  const corsRaw = read(env, 'CORS_ORIGINS', v.string(), '*')!;
  const corsOrigins = corsRaw === '*' ? '*' : corsRaw.split(',').map((o) => o.trim()).filter(Boolean);
  if (corsOrigins !== '*') {
    for (const origin of corsOrigins) {
      if (!/^https?:\/\/[^/]+$/.test(origin)) throw new ConfigError('CORS_ORIGINS', `"${origin}" is not an origin such as https://app.example.com`);
    }
  }

  let auth: Config['auth'];
  if (requireTogether(env, ['SUPABASE_URL', 'SUPABASE_ANON_KEY'])) {
    auth = {
      kind: 'supabase',
      url: stripSlash(read(env, 'SUPABASE_URL', httpUrl)!),
      anonKey: env.SUPABASE_ANON_KEY!.trim(),
      refusalCacheMs: read(env, 'SUPABASE_REFUSAL_CACHE_MS', positiveInt(3_600_000), DEFAULTS.supabaseRefusalCacheMs)!,
    };
  } else {
    forbidWithout(env, ['SUPABASE_REFUSAL_CACHE_MS'], 'SUPABASE_URL');
    const jwtSecret = read(env, 'AUTH_JWT_SECRET', v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters')));
    auth = { kind: 'local', jwtSecret };
  }

  let blobs: Config['blobs'] = { kind: 'local' };
  if (requireTogether(env, ['MINIO_ENDPOINT', 'MINIO_ACCESS_KEY', 'MINIO_SECRET_KEY'])) {
    blobs = {
      kind: 'minio',
      endpoint: stripSlash(read(env, 'MINIO_ENDPOINT', httpUrl)!),
      accessKey: env.MINIO_ACCESS_KEY!.trim(),
      secretKey: env.MINIO_SECRET_KEY!.trim(),
      bucket: read(env, 'MINIO_BUCKET', v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 lower-case letters, digits, . -)')), DEFAULTS.minioBucket)!,
      publicUrl: read(env, 'MINIO_PUBLIC_URL', httpUrl)?.replace(/\/+$/, ''),
    };
  } else {
    forbidWithout(env, ['MINIO_BUCKET', 'MINIO_PUBLIC_URL'], 'MINIO_ENDPOINT');
  }

  let models: Config['models'] = { kind: 'extractive' };
  const ollamaUrl = read(env, 'OLLAMA_URL', httpUrl);
  if (ollamaUrl) {
    models = {
      kind: 'ollama',
      url: stripSlash(ollamaUrl),
      chatModel: read(env, 'OLLAMA_CHAT_MODEL', v.string(), DEFAULTS.ollamaChatModel)!,
      embedModel: read(env, 'OLLAMA_EMBED_MODEL', v.string(), DEFAULTS.ollamaEmbedModel)!,
      timeoutMs: read(env, 'OLLAMA_TIMEOUT_MS', positiveInt(3_600_000), DEFAULTS.ollamaTimeoutMs)!,
    };
  } else {
    forbidWithout(env, ['OLLAMA_CHAT_MODEL', 'OLLAMA_EMBED_MODEL', 'OLLAMA_TIMEOUT_MS'], 'OLLAMA_URL');
  }

  let index: Config['index'] = { kind: 'sqlite' };
  const chromaUrl = read(env, 'CHROMA_URL', httpUrl);
  if (chromaUrl) {
    // Chroma is given vectors, never computes them: without an embedding model it would hold nothing useful.
    if (models.kind !== 'ollama') throw new ConfigError('CHROMA_URL', 'needs OLLAMA_URL, which provides the embeddings Chroma stores');
    index = { kind: 'chroma', url: stripSlash(chromaUrl), collection: read(env, 'CHROMA_COLLECTION', collectionName, DEFAULTS.chromaCollection)! };
  } else {
    forbidWithout(env, ['CHROMA_COLLECTION'], 'CHROMA_URL');
  }

  let records: Config['records'] = { kind: 'sqlite' };
  const databaseUrl = read(env, 'DATABASE_URL', postgresUrl);
  if (databaseUrl) {
    records = { kind: 'postgres', url: databaseUrl, poolSize: read(env, 'DATABASE_POOL_SIZE', positiveInt(1000), DEFAULTS.databasePoolSize)! };
    // Vectors kept in SQLite would be one instance's own: with a shared database they belong in Chroma.
    if (models.kind === 'ollama' && index.kind !== 'chroma') {
      throw new ConfigError('CHROMA_URL', 'must be set with DATABASE_URL and OLLAMA_URL: vectors are kept in Chroma when records are in PostgreSQL');
    }
  } else {
    forbidWithout(env, ['DATABASE_POOL_SIZE', 'QUEUE_POLL_INTERVAL_MS', 'QUEUE_LEASE_SECONDS'], 'DATABASE_URL');
  }
  const role = read(env, 'ROLE', v.picklist(['all', 'serve', 'worker'], 'must be all, serve or worker'), 'all')!;
  if (role !== 'all' && records.kind !== 'postgres') {
    throw new ConfigError('ROLE', `"${role}" needs DATABASE_URL: the processes share their ingest queue in PostgreSQL`);
  }
  // A worker reads the files a serve instance received: they must be in shared storage, not on one process's disk.
  if (role !== 'all' && blobs.kind !== 'minio') {
    throw new ConfigError('MINIO_ENDPOINT', `must be set with ROLE=${role}: workers read uploaded files from shared object storage`);
  }
  const queue = {
    pollIntervalMs: read(env, 'QUEUE_POLL_INTERVAL_MS', positiveInt(60_000), DEFAULTS.queuePollIntervalMs)!,
    leaseSeconds: read(env, 'QUEUE_LEASE_SECONDS', positiveInt(3600), DEFAULTS.queueLeaseSeconds)!,
  };

  const ingestConcurrency = read(env, 'INGEST_CONCURRENCY', positiveInt(16), 2)!;
  const metricsPort = read(env, 'METRICS_PORT', portNumber);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError('METRICS_PORT', 'must differ from PORT; leave it unset to serve /metrics on the API port');
  }
  return {
    port,
    host,
    dataDir,
    records,
    role,
    queue,
    publicUrl,
    corsOrigins,
    auth,
    blobs,
    index,
    models,
    ingestConcurrency,
    ingestPerUserConcurrency: read(env, 'INGEST_PER_USER_CONCURRENCY', positiveInt(16), 1)!,
    // As many extraction processes as documents in progress: with fewer, a second user's document would wait for the
    // first one's extraction after all, which is what fair scheduling is meant to prevent.
    extractionWorkers: read(env, 'EXTRACTION_WORKERS', positiveInt(16), ingestConcurrency)!,
    extractionNiceness: read(env, 'EXTRACTION_NICENESS', wholeNumber(19), DEFAULT_EXTRACTION_NICENESS)!,
    logLevel: read(env, 'LOG_LEVEL', v.pipe(v.string(), v.toLowerCase(), v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`)), 'info')!,
    http: {
      headersTimeoutMs: read(env, 'HTTP_HEADERS_TIMEOUT_MS', positiveInt(600_000), DEFAULTS.httpHeadersTimeoutMs)!,
      bodyTimeoutMs: read(env, 'HTTP_BODY_TIMEOUT_MS', positiveInt(3_600_000), DEFAULTS.httpBodyTimeoutMs)!,
      uploadBodyTimeoutMs: read(env, 'UPLOAD_BODY_TIMEOUT_MS', positiveInt(24 * 3_600_000), DEFAULTS.uploadBodyTimeoutMs)!,
      idleTimeoutMs: read(env, 'HTTP_IDLE_TIMEOUT_MS', positiveInt(3_600_000), DEFAULTS.httpIdleTimeoutMs)!,
      maxConnectionsPerClient: read(env, 'MAX_CONNECTIONS_PER_CLIENT', positiveInt(100_000), DEFAULTS.maxConnectionsPerClient)!,
      authFailuresPerMinute: read(env, 'AUTH_FAILURES_PER_MINUTE', positiveInt(1_000_000), DEFAULTS.authFailuresPerMinute)!,
      trustProxy: read(env, 'TRUST_PROXY', flag, false)!,
    },
    uploadLimits: {
      storageQuotaBytes: read(env, 'USER_STORAGE_QUOTA_BYTES', positiveInt(Number.MAX_SAFE_INTEGER), DEFAULTS.userStorageQuotaBytes)!,
      maxPendingUploads: read(env, 'MAX_PENDING_UPLOADS', positiveInt(100_000), DEFAULTS.maxPendingUploads)!,
    },
    // At most a day, so a sweep cannot be configured away by accident.
    uploadSweepIntervalMs: read(env, 'UPLOAD_SWEEP_INTERVAL_MS', positiveInt(86_400_000), DEFAULTS.uploadSweepIntervalMs)!,
    metrics: {
      port: metricsPort,
      token: read(env, 'METRICS_TOKEN', v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    },
    extraction: readExtractionLimits(env),
    answering: readAnswering(env),
  };
}

// --- Answering (issue 19): one self-contained block. ---------------------------------------------------------------
export interface AnsweringSettings {
  /**
   * Worker threads that re-rank hits and compute extractive answers (ANSWER_POOL_THREADS; default cores − 1, at least
   * 1, so the request thread keeps a core for HTTP). 0: all on the request thread (as before the pool; for comparison).
   */
  poolThreads: number;
  /** Pool tasks that may wait for a thread (ANSWER_QUEUE_LIMIT); a question finding the queue full gets 503. */
  queueLimit: number;
  /** Questions of one user in progress at once (MAX_QUESTIONS_PER_USER); the next gets 429 with Retry-After. */
  perUserInFlight: number;
}

function readAnswering(env: Env): AnsweringSettings {
  return {
    poolThreads: read(env, 'ANSWER_POOL_THREADS', wholeNumber(256), Math.max(1, os.availableParallelism() - 1))!,
    queueLimit: read(env, 'ANSWER_QUEUE_LIMIT', positiveInt(1_000_000), 64)!,
    perUserInFlight: read(env, 'MAX_QUESTIONS_PER_USER', positiveInt(10_000), 8)!,
  };
}

function readExtractionLimits(env: Env): ExtractionLimits {
  const d = DEFAULTS.extraction;
  return {
    maxPages: read(env, 'MAX_DOCUMENT_PAGES', positiveInt(1_000_000), d.maxPages)!,
    maxOcrPages: read(env, 'MAX_OCR_PAGES', positiveInt(1_000_000), d.maxOcrPages)!,
    pageTimeoutMs: read(env, 'EXTRACTION_PAGE_TIMEOUT_MS', positiveInt(86_400_000), d.pageTimeoutMs)!,
    msPerPage: read(env, 'EXTRACTION_MS_PER_PAGE', positiveInt(3_600_000), d.msPerPage)!,
    maxPdfImagePixels: read(env, 'PDF_MAX_IMAGE_PIXELS', positiveInt(1_000_000_000), d.maxPdfImagePixels)!,
    maxMemoryMb: read(env, 'EXTRACTION_MAX_MEMORY_MB', v.pipe(positiveInt(65_536), v.minValue(128, 'must be at least 128')), d.maxMemoryMb)!,
    recycleAfterPages: read(env, 'EXTRACTION_RECYCLE_PAGES', positiveInt(10_000_000), d.recycleAfterPages)!,
    idleMs: read(env, 'EXTRACTION_IDLE_MS', positiveInt(86_400_000), d.idleMs)!,
  };
}
