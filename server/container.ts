import path from 'node:path';
import { Container } from 'inversify';
import { createDocChat, type DocChat } from '../core/index.js';
import type { BlobStore } from '../core/ports/blob-store.js';
import type { ChatRepo } from '../core/ports/chat-repo.js';
import type { Clock, IdGenerator } from '../core/ports/clock-and-ids.js';
import type { DocumentReader } from '../core/ports/document-reader.js';
import type { Embedder } from '../core/ports/embedder.js';
import type { DependencyProbe } from '../core/ports/health-check.js';
import type { IdentityVerifier } from '../core/ports/identity-verifier.js';
import type { IngestJobRepo } from '../core/ports/ingest-job-repo.js';
import type { JobQueue } from '../core/ports/job-queue.js';
import type { Llm } from '../core/ports/llm.js';
import type { Logger } from '../core/ports/logger.js';
import type { SessionRepo } from '../core/ports/session-repo.js';
import type { VectorIndex } from '../core/ports/vector-index.js';
import { ChromaVectorIndex } from '../adapters/chroma/chroma-vector-index.js';
import { ExtractiveAnswerer } from '../adapters/extractive/extractive-answerer.js';
import { ChildProcessDocumentReader } from '../adapters/extraction/child-process-document-reader.js';
import { InProcessJobQueue } from '../adapters/in-process-queue/in-process-job-queue.js';
import { LocalBlobStore } from '../adapters/local-blob/local-blob-store.js';
import { LocalJwtVerifier } from '../adapters/local-jwt/local-jwt-verifier.js';
import { MinioBlobStore } from '../adapters/minio/minio-blob-store.js';
import { OllamaEmbedder } from '../adapters/ollama/ollama-embedder.js';
import { OllamaLlm } from '../adapters/ollama/ollama-llm.js';
import { openSqliteDatabase, type SqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteChatRepo } from '../adapters/sqlite/sqlite-chat-repo.js';
import { SqliteDenseIndex } from '../adapters/sqlite/sqlite-dense-index.js';
import { SqliteFtsIndex } from '../adapters/sqlite/sqlite-fts-index.js';
import { SqliteIngestJobRepo } from '../adapters/sqlite/sqlite-ingest-job-repo.js';
import { SqliteSessionRepo } from '../adapters/sqlite/sqlite-session-repo.js';
import { SupabaseIdentityVerifier } from '../adapters/supabase/supabase-identity-verifier.js';
import { loadOrCreateSecret } from '../adapters/system/secret-file.js';
import { JsonLinesLogger, RandomUuidGenerator, SystemClock } from '../adapters/system/system.js';
import type { Config } from './config.js';
import { TOKENS } from './tokens.js';

export { TOKENS };

/**
 * The composition root: binds each port to the adapter the configuration picks. Core classes carry no decorators;
 * everything is built by factories here, so nothing depends on decorator metadata.
 */
export function buildContainer(config: Config, options: { logger?: Logger } = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind<Config>(TOKENS.Config).toConstantValue(config);
  c.bind<Logger>(TOKENS.Logger).toConstantValue(options.logger ?? new JsonLinesLogger());
  c.bind<Clock>(TOKENS.Clock).toConstantValue(new SystemClock());
  c.bind<IdGenerator>(TOKENS.Ids).toConstantValue(new RandomUuidGenerator());

  c.bind<SqliteDatabase>(TOKENS.Database).toDynamicValue(() => openSqliteDatabase(path.join(config.dataDir, 'doc-chat.sqlite')));
  c.bind<SessionRepo>(TOKENS.SessionRepo).toDynamicValue((ctx) => new SqliteSessionRepo(ctx.get<SqliteDatabase>(TOKENS.Database).db));
  c.bind<ChatRepo>(TOKENS.ChatRepo).toDynamicValue((ctx) => new SqliteChatRepo(ctx.get<SqliteDatabase>(TOKENS.Database).db));
  c.bind<IngestJobRepo>(TOKENS.IngestJobRepo).toDynamicValue((ctx) => new SqliteIngestJobRepo(ctx.get<SqliteDatabase>(TOKENS.Database).db));
  c.bind<VectorIndex>(TOKENS.LexicalIndex).toDynamicValue((ctx) => new SqliteFtsIndex(ctx.get<SqliteDatabase>(TOKENS.Database)));

  const auth = config.auth;
  c.bind<IdentityVerifier>(TOKENS.IdentityVerifier).toDynamicValue(() =>
    auth.kind === 'supabase'
      ? new SupabaseIdentityVerifier({ url: auth.url, anonKey: auth.anonKey })
      : new LocalJwtVerifier(auth.jwtSecret ?? loadOrCreateSecret(path.join(config.dataDir, 'jwt-secret'))),
  );

  const blobs = config.blobs;
  c.bind<BlobStore>(TOKENS.BlobStore).toDynamicValue(() =>
    blobs.kind === 'minio'
      ? new MinioBlobStore({
          endpoint: blobs.endpoint, accessKey: blobs.accessKey, secretKey: blobs.secretKey, bucket: blobs.bucket, publicUrl: blobs.publicUrl,
        })
      : new LocalBlobStore({
          directory: path.join(config.dataDir, 'blobs'),
          publicUrl: config.publicUrl,
          secret: loadOrCreateSecret(path.join(config.dataDir, 'upload-signing-secret')),
        }),
  );

  const models = config.models;
  if (models.kind === 'ollama') {
    c.bind<Embedder>(TOKENS.Embedder).toConstantValue(new OllamaEmbedder({ host: models.url, model: models.embedModel, timeoutMs: models.timeoutMs }));
    c.bind<Llm>(TOKENS.Llm).toConstantValue(new OllamaLlm({ host: models.url, model: models.chatModel, timeoutMs: models.timeoutMs }));
    const index = config.index;
    c.bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue((ctx) =>
      index.kind === 'chroma'
        ? new ChromaVectorIndex({ url: index.url, collection: index.collection })
        : new SqliteDenseIndex(ctx.get<SqliteDatabase>(TOKENS.Database)),
    );
  } else {
    c.bind<Llm>(TOKENS.Llm).toConstantValue(new ExtractiveAnswerer());
  }

  c.bind<DocumentReader>(TOKENS.DocumentReader).toDynamicValue(() => new ChildProcessDocumentReader({ poolSize: config.extractionWorkers, ...config.extraction }));

  c.bind<JobQueue>(TOKENS.JobQueue).toDynamicValue(
    (ctx) =>
      new InProcessJobQueue(
        // Resolved per job, not at bind time: the queue and the use cases need each other.
        (jobId) => ctx.get<DocChat>(TOKENS.DocChat).runIngestion.execute(jobId),
        config.ingestConcurrency,
        ctx.get<Logger>(TOKENS.Logger),
      ),
  );

  c.bind<DocChat>(TOKENS.DocChat).toDynamicValue((ctx) =>
    createDocChat({
      sessions: ctx.get(TOKENS.SessionRepo),
      chats: ctx.get(TOKENS.ChatRepo),
      jobs: ctx.get(TOKENS.IngestJobRepo),
      blobs: ctx.get(TOKENS.BlobStore),
      indexes: indexesOf(ctx.get<VectorIndex>(TOKENS.LexicalIndex), ctx.get<VectorIndex>(TOKENS.DenseIndex, { optional: true })),
      reader: ctx.get(TOKENS.DocumentReader),
      llm: ctx.get(TOKENS.Llm),
      embedder: ctx.get<Embedder>(TOKENS.Embedder, { optional: true }),
      queue: ctx.get(TOKENS.JobQueue),
      ids: ctx.get(TOKENS.Ids),
      clock: ctx.get(TOKENS.Clock),
      logger: ctx.get(TOKENS.Logger),
    }),
  );
  return c;
}

function indexesOf(lexical: VectorIndex, dense: VectorIndex | undefined): VectorIndex[] {
  return dense ? [lexical, dense] : [lexical];
}

/** The configured external dependencies, for readiness. The embedded ones (SQLite, disk) are checked too. */
export function readinessProbes(container: Container): DependencyProbe[] {
  const config = container.get<Config>(TOKENS.Config);
  const probes: DependencyProbe[] = [
    {
      name: 'database',
      check: async () => {
        container.get<SqliteDatabase>(TOKENS.Database).raw.prepare('SELECT 1').get();
      },
    },
  ];
  const add = (name: string, target: unknown) => {
    const checkable = target as { check?: () => Promise<void> };
    if (typeof checkable.check === 'function') probes.push({ name, check: () => checkable.check!() });
  };
  if (config.blobs.kind === 'minio') add('object storage (MinIO)', container.get(TOKENS.BlobStore));
  if (config.index.kind === 'chroma') add('vector index (Chroma)', container.get(TOKENS.DenseIndex));
  if (config.models.kind === 'ollama') {
    add('embedding model (Ollama)', container.get(TOKENS.Embedder));
    add('chat model (Ollama)', container.get(TOKENS.Llm));
  }
  if (config.auth.kind === 'supabase') add('identity provider (Supabase)', container.get(TOKENS.IdentityVerifier));
  return probes;
}
