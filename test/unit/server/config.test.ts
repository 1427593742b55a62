import os from 'node:os';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  return expect.fail('expected a ConfigError');
}

describe('configuration', () => {
  it('defaults to the embedded stack on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(3000);
    expect(config.publicUrl).to.equal('http://localhost:3000');
    expect(config.corsOrigins).to.equal('*');
    expect(config.auth).to.deep.equal({ kind: 'local', jwtSecret: undefined });
    expect([config.blobs.kind, config.index.kind, config.models.kind]).to.deep.equal(['local', 'sqlite', 'extractive']);
    expect(config.dataDir).to.match(/\/data$/);
  });

  it('switches each adapter by its variables', () => {
    const config = loadConfig({
      SUPABASE_URL: 'https://abc.supabase.co/', SUPABASE_ANON_KEY: 'anon',
      S3_ENDPOINT: 'http://seaweedfs:8333', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', S3_PUBLIC_URL: 'https://files.example.com',
      CHROMA_URL: 'http://chroma:8000', OLLAMA_URL: 'http://ollama:11434', OLLAMA_CHAT_MODEL: 'qwen2.5:7b',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
    });
    expect(config.auth).to.deep.equal({ kind: 'supabase', url: 'https://abc.supabase.co', anonKey: 'anon', refusalCacheMs: 30_000 });
    expect(config.blobs).to.deep.include({ kind: 's3', bucket: 'documents', publicUrl: 'https://files.example.com' });
    expect(config.index).to.deep.equal({ kind: 'chroma', url: 'http://chroma:8000', collection: 'doc_chat_chunks' });
    expect(config.models).to.deep.include({ kind: 'ollama', chatModel: 'qwen2.5:7b', embedModel: 'nomic-embed-text' });
    expect(config.corsOrigins).to.deep.equal(['https://a.example.com', 'https://b.example.com']);
  });

  it('names the variable of a wrong value', () => {
    expect(configError({ PORT: 'eighty' }).variable).to.equal('PORT');
    expect(configError({ PORT: '70000' }).variable).to.equal('PORT');
    expect(configError({ PUBLIC_URL: 'localhost:3000' }).variable).to.equal('PUBLIC_URL');
    expect(configError({ AUTH_JWT_SECRET: 'short' }).variable).to.equal('AUTH_JWT_SECRET');
    expect(configError({ CORS_ORIGINS: 'example.com' }).variable).to.equal('CORS_ORIGINS');
    expect(configError({ OLLAMA_URL: 'ftp://x' }).variable).to.equal('OLLAMA_URL');
    expect(configError({ S3_ENDPOINT: 'http://m:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', S3_BUCKET: 'Bad_Bucket' }).variable).to.equal('S3_BUCKET');
  });

  it('schedules ingestion 2 at once, 1 per user, with as many extraction processes as documents in progress', () => {
    expect(loadConfig({})).to.include({ ingestConcurrency: 2, ingestPerUserConcurrency: 1, extractionWorkers: 2 });
    expect(loadConfig({ INGEST_CONCURRENCY: '4' })).to.include({ ingestConcurrency: 4, extractionWorkers: 4 });
    expect(loadConfig({ INGEST_CONCURRENCY: '4', EXTRACTION_WORKERS: '1', INGEST_PER_USER_CONCURRENCY: '2' }))
      .to.include({ ingestConcurrency: 4, extractionWorkers: 1, ingestPerUserConcurrency: 2 });
    expect(configError({ INGEST_PER_USER_CONCURRENCY: '0' }).message).to.equal('INGEST_PER_USER_CONCURRENCY: must be at least 1 (got "0")');
  });

  it('refuses partial settings, naming what is missing or stray', () => {
    expect(configError({ SUPABASE_URL: 'https://abc.supabase.co' }).variable).to.equal('SUPABASE_ANON_KEY');
    expect(configError({ S3_ENDPOINT: 'http://m:9000', S3_ACCESS_KEY: 'a' }).variable).to.equal('S3_SECRET_KEY');
    expect(configError({ S3_BUCKET: 'docs' }).variable).to.equal('S3_BUCKET');
    expect(configError({ OLLAMA_CHAT_MODEL: 'llama3' }).variable).to.equal('OLLAMA_CHAT_MODEL');
    expect(configError({ CHROMA_URL: 'http://chroma:8000' }).message).to.match(/^CHROMA_URL: needs OLLAMA_URL/);
    expect(configError({ CHROMA_COLLECTION: 'abc' }).variable).to.equal('CHROMA_COLLECTION');
  });

  it('still reads the object store settings under their old MINIO_* names', () => {
    const old = {
      MINIO_ENDPOINT: 'http://minio:9000', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b', MINIO_BUCKET: 'files', MINIO_PUBLIC_URL: 'https://files.example.com',
    };
    expect(loadConfig(old).blobs).to.deep.equal({
      kind: 's3', endpoint: 'http://minio:9000', accessKey: 'a', secretKey: 'b', bucket: 'files', publicUrl: 'https://files.example.com',
    });
    // Old and new names mixed, or both set to the same value, read as one setting.
    expect(loadConfig({ ...old, S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'files' }).blobs).to.deep.include({ endpoint: 'http://minio:9000', bucket: 'files' });
    expect(loadConfig({ S3_ENDPOINT: 'http://s3:8333', MINIO_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' }).blobs).to.deep.include({ kind: 's3', accessKey: 'a' });
    // An error names the variable as it was set.
    expect(configError({ ...old, MINIO_BUCKET: 'Bad_Bucket' }).variable).to.equal('MINIO_BUCKET');
    expect(configError({ MINIO_ENDPOINT: 'http://m:9000', MINIO_ACCESS_KEY: 'a' }).message).to.equal('S3_SECRET_KEY: must be set together with MINIO_ENDPOINT, MINIO_ACCESS_KEY');
    expect(configError({ MINIO_PUBLIC_URL: 'https://files.example.com' }).message).to.equal('MINIO_PUBLIC_URL: has no effect without S3_ENDPOINT; set S3_ENDPOINT or remove MINIO_PUBLIC_URL');
  });

  it('refuses a setting given under its new and its old name with different values, never showing a secret', () => {
    const both = configError({ S3_ENDPOINT: 'http://new:8333', MINIO_ENDPOINT: 'http://old:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    expect(both.message).to.equal('S3_ENDPOINT: is set twice, to different values: as S3_ENDPOINT and as MINIO_ENDPOINT (its old name); keep only S3_ENDPOINT');
    const secrets = configError({ S3_ENDPOINT: 'http://s3:8333', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'new-s3cret', MINIO_SECRET_KEY: 'old-s3cret' });
    expect(secrets.variable).to.equal('S3_SECRET_KEY');
    expect(secrets.message).to.include('MINIO_SECRET_KEY').and.not.include('s3cret');
    // Blank counts as unset (compose passes empty strings), so it never conflicts.
    expect(loadConfig({ S3_ENDPOINT: 'http://s3:8333', MINIO_ENDPOINT: ' ', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' }).blobs).to.deep.include({ endpoint: 'http://s3:8333' });
  });

  it('has short API timeouts, a long upload one and per-client limits by default, each settable', () => {
    expect(loadConfig({}).http).to.deep.equal({
      headersTimeoutMs: 10_000, bodyTimeoutMs: 30_000, uploadBodyTimeoutMs: 900_000, idleTimeoutMs: 5_000,
      maxConnectionsPerClient: 64, maxConnections: 1000, authFailuresPerMinute: 30, trustProxy: false,
    });
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_BODY_TIMEOUT_MS: '3000', UPLOAD_BODY_TIMEOUT_MS: '60000', HTTP_IDLE_TIMEOUT_MS: '1000',
      MAX_CONNECTIONS_PER_CLIENT: '8', MAX_CONNECTIONS: '500', AUTH_FAILURES_PER_MINUTE: '5', TRUST_PROXY: 'true',
      SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_ANON_KEY: 'anon', SUPABASE_REFUSAL_CACHE_MS: '5000',
    });
    expect(config.http).to.deep.equal({
      headersTimeoutMs: 2000, bodyTimeoutMs: 3000, uploadBodyTimeoutMs: 60_000, idleTimeoutMs: 1000,
      maxConnectionsPerClient: 8, maxConnections: 500, authFailuresPerMinute: 5, trustProxy: true,
    });
    expect(config.auth).to.deep.include({ refusalCacheMs: 5000 });
    for (const name of ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_BODY_TIMEOUT_MS', 'UPLOAD_BODY_TIMEOUT_MS', 'HTTP_IDLE_TIMEOUT_MS', 'MAX_CONNECTIONS_PER_CLIENT', 'MAX_CONNECTIONS', 'AUTH_FAILURES_PER_MINUTE']) {
      expect(configError({ [name]: '0' }).variable).to.equal(name);
      expect(configError({ [name]: '1.5s' }).variable).to.equal(name);
    }
    expect(configError({ TRUST_PROXY: 'yes please' }).message).to.equal('TRUST_PROXY: must be true or false (got "yes please")');
    expect(configError({ SUPABASE_REFUSAL_CACHE_MS: '1000' }).message).to.match(/^SUPABASE_REFUSAL_CACHE_MS: has no effect without SUPABASE_URL/);
  });

  it('limits uploads per user (1 GiB, 20 pending) and sweeps every 10 minutes unless told otherwise', () => {
    const defaults = loadConfig({});
    expect(defaults.uploadLimits).to.deep.equal({ storageQuotaBytes: 1_073_741_824, maxPendingUploads: 20 });
    expect(defaults.uploadSweepIntervalMs).to.equal(600_000);
    const set = loadConfig({ USER_STORAGE_QUOTA_BYTES: '5000000', MAX_PENDING_UPLOADS: '3', UPLOAD_SWEEP_INTERVAL_MS: '60000' });
    expect(set.uploadLimits).to.deep.equal({ storageQuotaBytes: 5_000_000, maxPendingUploads: 3 });
    expect(set.uploadSweepIntervalMs).to.equal(60_000);
    expect(configError({ USER_STORAGE_QUOTA_BYTES: '1GB' }).variable).to.equal('USER_STORAGE_QUOTA_BYTES');
    expect(configError({ MAX_PENDING_UPLOADS: '0' }).variable).to.equal('MAX_PENDING_UPLOADS');
    expect(configError({ UPLOAD_SWEEP_INTERVAL_MS: '100000000' }).variable).to.equal('UPLOAD_SWEEP_INTERVAL_MS');
  });

  it('takes 20 attachments of an e-mail, 3 mails deep, unless told otherwise', () => {
    expect(loadConfig({}).mailAttachments).to.deep.equal({ maxPerMail: 20, maxDepth: 3 });
    expect(loadConfig({ MAX_MAIL_ATTACHMENTS: '5', MAX_MAIL_DEPTH: '1' }).mailAttachments).to.deep.equal({ maxPerMail: 5, maxDepth: 1 });
    expect(configError({ MAX_MAIL_ATTACHMENTS: '0' }).variable).to.equal('MAX_MAIL_ATTACHMENTS');
    expect(configError({ MAX_MAIL_DEPTH: '11' }).variable).to.equal('MAX_MAIL_DEPTH');
  });

  it('reads LOG_LEVEL as one of pino\'s level names, info by default', () => {
    expect(loadConfig({}).logLevel).to.equal('info');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).to.equal('debug');
    expect(loadConfig({ LOG_LEVEL: ' WARN ' }).logLevel).to.equal('warn');
    expect(configError({ LOG_LEVEL: 'verbose' }).message).to.equal('LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")');
  });

  it('reads the extraction limits, with defaults, naming the variable of a wrong value', () => {
    expect(loadConfig({}).extraction).to.deep.equal({
      maxPages: 10_000, maxOcrPages: 100, pageTimeoutMs: 120_000, msPerPage: 5_000, maxPdfImagePixels: 50_000_000,
      maxMemoryMb: 1_024, recycleAfterPages: 5_000, idleMs: 30_000, pdfReader: 'pdfium', maxSheetRows: 100_000, maxUnpackedBytes: 268_435_456,
    });
    expect(loadConfig({ MAX_SHEET_ROWS: '500', MAX_UNPACKED_MB: '8' }).extraction).to.deep.include({ maxSheetRows: 500, maxUnpackedBytes: 8_388_608 });
    expect(loadConfig({ PDF_READER: 'PDFjs' }).extraction.pdfReader).to.equal('pdfjs');
    expect(configError({ PDF_READER: 'mupdf' }).message).to.equal('PDF_READER: must be pdfjs or pdfium (got "mupdf")');
    const config = loadConfig({ MAX_DOCUMENT_PAGES: '500', MAX_OCR_PAGES: '20', EXTRACTION_IDLE_MS: '1000', EXTRACTION_MAX_MEMORY_MB: '512' });
    expect(config.extraction).to.deep.include({ maxPages: 500, maxOcrPages: 20, idleMs: 1000, maxMemoryMb: 512 });
    expect(configError({ MAX_DOCUMENT_PAGES: '0' }).variable).to.equal('MAX_DOCUMENT_PAGES');
    expect(configError({ MAX_OCR_PAGES: 'many' }).variable).to.equal('MAX_OCR_PAGES');
    expect(configError({ EXTRACTION_PAGE_TIMEOUT_MS: '-5' }).variable).to.equal('EXTRACTION_PAGE_TIMEOUT_MS');
    expect(configError({ EXTRACTION_MS_PER_PAGE: '1.5' }).variable).to.equal('EXTRACTION_MS_PER_PAGE');
    expect(configError({ PDF_MAX_IMAGE_PIXELS: 'x' }).variable).to.equal('PDF_MAX_IMAGE_PIXELS');
    expect(configError({ EXTRACTION_MAX_MEMORY_MB: '64' }).message).to.equal('EXTRACTION_MAX_MEMORY_MB: must be at least 128 (got "64")');
    expect(configError({ EXTRACTION_RECYCLE_PAGES: '0' }).variable).to.equal('EXTRACTION_RECYCLE_PAGES');
    expect(configError({ EXTRACTION_IDLE_MS: 'soon' }).variable).to.equal('EXTRACTION_IDLE_MS');
    expect(loadConfig({}).extractionNiceness).to.equal(10);
    expect(loadConfig({ EXTRACTION_NICENESS: '0' }).extractionNiceness).to.equal(0);
    expect(configError({ EXTRACTION_NICENESS: '20' }).message).to.equal('EXTRACTION_NICENESS: must be at most 19 (got "20")');
    expect(loadConfig({}).extractionRangePages).to.equal(50);
    expect(loadConfig({}).extractionScheduling).to.equal('nice');
    expect(loadConfig({ EXTRACTION_SCHEDULING: 'idle' }).extractionScheduling).to.equal('idle');
    expect(configError({ EXTRACTION_SCHEDULING: 'fifo' }).variable).to.equal('EXTRACTION_SCHEDULING');
    expect(loadConfig({ EXTRACTION_RANGE_PAGES: '50' }).extractionRangePages).to.equal(50);
    expect(configError({ EXTRACTION_RANGE_PAGES: '0' }).variable).to.equal('EXTRACTION_RANGE_PAGES');
  });

  it('serves /metrics on the API port and publicly by default; METRICS_PORT and METRICS_TOKEN change that', () => {
    expect(loadConfig({}).metrics).to.deep.equal({ port: undefined, token: undefined });
    const token = 'scrape-token-0123456789';
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: token }).metrics).to.deep.equal({ port: 9464, token });
    expect(configError({ METRICS_PORT: 'nine' }).variable).to.equal('METRICS_PORT');
    expect(configError({ PORT: '3000', METRICS_PORT: '3000' }).message).to.match(/^METRICS_PORT: must differ from PORT/);
    // A secret: the error names the rule, never the value.
    const short = configError({ METRICS_TOKEN: 'tiny-secret' });
    expect(short.variable).to.equal('METRICS_TOKEN');
    expect(short.message).to.not.include('tiny-secret');
  });

  it('treats empty values as unset (compose passes empty strings)', () => {
    expect(loadConfig({ SUPABASE_URL: '', SUPABASE_ANON_KEY: '', AUTH_JWT_SECRET: '' }).auth.kind).to.equal('local');
  });

  it('puts records in PostgreSQL with DATABASE_URL, never repeating its value (a password) in an error', () => {
    expect(loadConfig({}).records).to.deep.equal({ kind: 'sqlite' });
    expect(loadConfig({ DATABASE_URL: 'postgres://app:s3cret@db:5432/docchat' }).records).to.deep.equal({
      kind: 'postgres', url: 'postgres://app:s3cret@db:5432/docchat', poolSize: 10, searchPoolSize: 4, readPoolSize: 4,
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x', DATABASE_POOL_SIZE: '25' }).records).to.include({ poolSize: 25 });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x', DATABASE_SEARCH_POOL_SIZE: '2' }).records).to.include({ poolSize: 10, searchPoolSize: 2, readPoolSize: 4 });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x', DATABASE_READ_POOL_SIZE: '7' }).records).to.include({ readPoolSize: 7 });
    expect(configError({ DATABASE_URL: 'postgresql://db/x', DATABASE_READ_POOL_SIZE: '0' }).variable).to.equal('DATABASE_READ_POOL_SIZE');
    expect(configError({ DATABASE_READ_POOL_SIZE: '5' }).message).to.match(/^DATABASE_READ_POOL_SIZE: has no effect without DATABASE_URL/);
    expect(configError({ DATABASE_URL: 'postgresql://db/x', DATABASE_SEARCH_POOL_SIZE: '0' }).variable).to.equal('DATABASE_SEARCH_POOL_SIZE');
    const bad = configError({ DATABASE_URL: 'mysql://app:s3cret@db/x' });
    expect(bad.variable).to.equal('DATABASE_URL');
    expect(bad.message).to.not.include('s3cret');
    expect(configError({ DATABASE_POOL_SIZE: '5' }).message).to.match(/^DATABASE_POOL_SIZE: has no effect without DATABASE_URL/);
    expect(configError({ DATABASE_SEARCH_POOL_SIZE: '5' }).message).to.match(/^DATABASE_SEARCH_POOL_SIZE: has no effect without DATABASE_URL/);
    // Vectors kept in SQLite would belong to one instance: with a shared database they go to Chroma.
    expect(configError({ DATABASE_URL: 'postgres://db/x', OLLAMA_URL: 'http://ollama:11434' }).variable).to.equal('CHROMA_URL');
  });

  it('runs both roles by default; serve and worker alone need the shared database', () => {
    expect(loadConfig({}).role).to.equal('all');
    const s3 = { S3_ENDPOINT: 'http://seaweedfs:8333', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 'secret-key' };
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', ROLE: 'worker', ...s3 }).role).to.equal('worker');
    expect(configError({ DATABASE_URL: 'postgres://db/x', ROLE: 'worker' }).message).to.match(/^S3_ENDPOINT: must be set with ROLE=worker/);
    // The old name counts: a worker configured before the rename still starts.
    const old = { MINIO_ENDPOINT: 'http://minio:9000', MINIO_ACCESS_KEY: 'k', MINIO_SECRET_KEY: 'secret-key' };
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', ROLE: 'worker', ...old }).role).to.equal('worker');
    expect(configError({ ROLE: 'serve' }).message).to.match(/^ROLE: "serve" needs DATABASE_URL/);
    expect(configError({ DATABASE_URL: 'postgres://db/x', ROLE: 'both' }).variable).to.equal('ROLE');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).queue).to.deep.equal({ pollIntervalMs: 1000, leaseSeconds: 60 });
    expect(configError({ QUEUE_LEASE_SECONDS: '5' }).message).to.match(/has no effect without DATABASE_URL/);
  });

  it('reads the answering settings (issue 19): pool threads (0 = on the request thread), tasks per thread, their priority, queue bound, per-user cap', () => {
    expect(loadConfig({}).answering).to.deep.equal({
      poolThreads: Math.max(2, os.availableParallelism() - 1), threadTasks: 2, threadNice: 5, queueLimit: 64, perUserInFlight: 8,
    });
    // Where the records are in PostgreSQL, the answer threads yield to the request thread and the database by default.
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).answering.threadNice).to.equal(10);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', ANSWER_THREAD_NICE: '0' }).answering.threadNice).to.equal(0);
    expect(loadConfig({ ANSWER_POOL_THREADS: '0', ANSWER_THREAD_TASKS: '4', ANSWER_THREAD_NICE: '10', ANSWER_QUEUE_LIMIT: '10', MAX_QUESTIONS_PER_USER: '2' }).answering)
      .to.deep.equal({ poolThreads: 0, threadTasks: 4, threadNice: 10, queueLimit: 10, perUserInFlight: 2 });
    expect(configError({ ANSWER_THREAD_TASKS: '0' }).variable).to.equal('ANSWER_THREAD_TASKS');
    expect(configError({ ANSWER_THREAD_NICE: '20' }).variable).to.equal('ANSWER_THREAD_NICE');
    expect(configError({ ANSWER_POOL_THREADS: 'all' }).variable).to.equal('ANSWER_POOL_THREADS');
    expect(configError({ ANSWER_POOL_THREADS: '1000' }).message).to.equal('ANSWER_POOL_THREADS: must be at most 256 (got "1000")');
    expect(configError({ ANSWER_QUEUE_LIMIT: '0' }).variable).to.equal('ANSWER_QUEUE_LIMIT');
    expect(configError({ MAX_QUESTIONS_PER_USER: '0' }).variable).to.equal('MAX_QUESTIONS_PER_USER');
  });
});
