import path from 'node:path';
import * as v from 'valibot';
import { DEFAULT_EXTRACTION_SETTINGS, DEFAULT_PROCESS_LIMITS } from '../adapters/extraction/index.js';

/** Everything the service can be told, decided once at start. The only module that reads process.env. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  corsOrigins: '*' | string[];
  auth: { kind: 'local'; jwtSecret?: string } | { kind: 'supabase'; url: string; anonKey: string };
  blobs: { kind: 'local' } | { kind: 'minio'; endpoint: string; accessKey: string; secretKey: string; bucket: string; publicUrl?: string };
  index: { kind: 'sqlite' } | { kind: 'chroma'; url: string; collection: string };
  models:
    | { kind: 'extractive' }
    | { kind: 'ollama'; url: string; chatModel: string; embedModel: string; timeoutMs: number };
  /** Documents processed at once; extraction itself runs in `extractionWorkers` child processes. */
  ingestConcurrency: number;
  extractionWorkers: number;
  /** Limits of document extraction; a document that hits one fails with a reason naming it (or loses OCR'd pages). */
  extraction: ExtractionLimits;
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
  'INGEST_CONCURRENCY', 'EXTRACTION_WORKERS',
  'MAX_DOCUMENT_PAGES', 'MAX_OCR_PAGES', 'EXTRACTION_PAGE_TIMEOUT_MS', 'EXTRACTION_MS_PER_PAGE', 'PDF_MAX_IMAGE_PIXELS',
  'EXTRACTION_MAX_MEMORY_MB', 'EXTRACTION_RECYCLE_PAGES', 'EXTRACTION_IDLE_MS',
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
const collectionName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/, 'must be 3-63 characters of letters, digits, . _ -'));

function read<T>(env: Env, name: string, schema: v.GenericSchema<string, T>, fallback?: T): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const result = v.safeParse(schema, raw.trim());
  if (!result.success) throw new ConfigError(name, `${result.issues[0].message} (got "${raw}")`);
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
    auth = { kind: 'supabase', url: stripSlash(read(env, 'SUPABASE_URL', httpUrl)!), anonKey: env.SUPABASE_ANON_KEY!.trim() };
  } else {
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

  return {
    port,
    host,
    dataDir,
    publicUrl,
    corsOrigins,
    auth,
    blobs,
    index,
    models,
    ingestConcurrency: read(env, 'INGEST_CONCURRENCY', positiveInt(16), 2)!,
    extractionWorkers: read(env, 'EXTRACTION_WORKERS', positiveInt(8), 1)!,
    extraction: readExtractionLimits(env),
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
