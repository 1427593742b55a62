import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as S3Client } from 'minio';
import { ChromaVectorIndex } from '../../adapters/chroma/chroma-vector-index.js';
import { startChromaServer, type ChromaServer } from './chroma-server.js';
import { FakeOllamaServer } from './fake-ollama-server.js';
import { describeWithPostgres, postgresUnavailableReason, sharedPostgresCluster } from './postgres-cluster.js';
import { startS3Server, type S3Server } from './s3-server.js';
import { startTestService, type TestService } from './test-service.js';

/**
 * One configuration of the service for the end-to-end suites, with what a test needs to look behind the API:
 * - `embedded`: the defaults (SQLite, files under DATA_DIR/blobs behind the app's own signed /uploads URLs, BM25,
 *   the extractive answerer);
 * - `production`: an S3 server (an in-process s3rver), Chroma (the chromadb package's real server) and Ollama (an HTTP
 *   server answering as Ollama's API) — hybrid retrieval and a generative answerer — as the compose file runs them.
 *
 * A suite creates its stack, calls `start()` in before() (dependencies start once, on the first call) and `close()`
 * in after(), which stops every service it started and then the dependencies.
 */
export interface Stack {
  readonly name: 'embedded' | 'production' | 'scaled';
  /** The extractive answerer quotes and names "file, page N"; the generative one cites passages as [n]. */
  readonly answerer: 'extractive' | 'generative';
  /**
   * Starts a service on this configuration (fresh DATA_DIR), its dependencies too on the first call; `env` is added
   * to the stack's own. Each call starts one more service on the same dependencies (on the scaled stack, on a new
   * database unless `env` names one in DATABASE_URL).
   */
  start(env?: Record<string, string>): Promise<TestService>;
  /** What every upload URL of `service` starts with: the app's /uploads route, or the bucket at S3_PUBLIC_URL. */
  uploadUrlPrefix(service: TestService): string;
  /** The same upload URL, made expired (the store checks the expiry: it must refuse it with 403). */
  expiredUploadUrl(signedUrl: string): string;
  /** Keys of every stored file: the bucket's objects, or the files under the last started service's DATA_DIR/blobs/objects. */
  storedObjectKeys(): Promise<string[]>;
  /** Records in the dense index (Chroma) matching the filter; null when the configuration has no separate one. */
  vectorRecordCount(filter?: { sessionId?: string; jobId?: string }): Promise<number> | null;
  /** The external dependencies, by the names stop/restartDependency take (none for embedded). */
  readonly dependencies: readonly DependencyName[];
  /** Stops a dependency the hard way; what it stored stays on disk for restartDependency. */
  stopDependency?(name: DependencyName): Promise<void>;
  /** Starts it again on the same port with the same data (or, for Chroma, `withoutData`: as if its volume were lost). */
  restartDependency?(name: DependencyName, options?: { withoutData?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export type DependencyName = 's3' | 'chroma' | 'ollama';

/** The part of the production stack's state a test may read (the fake model's received requests). */
export interface ProductionStack extends Stack {
  readonly name: 'production' | 'scaled';
  /** The Ollama server currently answering (a new instance after restartDependency('ollama')). */
  readonly ollama: FakeOllamaServer;
  readonly s3: S3Server;
  readonly chroma: ChromaServer;
  readonly bucket: string;
  readonly collection: string;
  /** Where clients reach the S3 server (S3_PUBLIC_URL): another host name for the same server than S3_ENDPOINT. */
  readonly s3PublicUrl: string;
  stopDependency(name: DependencyName): Promise<void>;
  restartDependency(name: DependencyName, options?: { withoutData?: boolean }): Promise<void>;
}

export type StackFactory = () => Stack;

/** Readiness names of the production dependencies (server/container.ts readinessProbes). */
export const READINESS_NAMES: Record<DependencyName, string[]> = {
  s3: ['object storage (S3)'],
  chroma: ['vector index (Chroma)'],
  ollama: ['embedding model (Ollama)', 'chat model (Ollama)'],
};

/** Models the fake Ollama server lists. */
export const CHAT_MODEL = 'llama3.2';
export const EMBED_MODEL = 'nomic-embed-text';

export function embeddedStack(): Stack {
  const services: TestService[] = [];
  return {
    name: 'embedded',
    answerer: 'extractive',
    dependencies: [],
    async start(env = {}) {
      const service = await startTestService(env);
      services.push(service);
      return service;
    },
    uploadUrlPrefix: (service) => `${service.baseUrl}/uploads/`,
    expiredUploadUrl(signedUrl) {
      const url = new URL(signedUrl);
      url.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
      return url.toString();
    },
    async storedObjectKeys() {
      const service = services.at(-1);
      if (!service) throw new Error('embeddedStack: no service started');
      const root = path.join(service.dataDir, 'blobs', 'objects');
      if (!fs.existsSync(root)) return [];
      return fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
        .sort();
    },
    vectorRecordCount: () => null,
    async close() {
      await closeAll(services);
    },
  };
}

/**
 * The production stack; with `postgres`, the scaled one: records, the lexical index and upload records in PostgreSQL
 * (a new database in the tests' throwaway cluster for each service started), no state in DATA_DIR but generated files.
 */
export function productionStack(options: { postgres?: boolean } = {}): ProductionStack {
  const services: TestService[] = [];
  const databases: string[] = [];
  const bucket = 'e2e-documents';
  const collection = 'e2e_chunks';
  let s3: S3Server | undefined;
  let chroma: ChromaServer | undefined;
  let ollama: FakeOllamaServer | undefined;
  let s3Dir: string | undefined;
  let chromaDir: string | undefined;
  let starting: Promise<void> | undefined;
  const down = new Set<DependencyName>();

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`productionStack: ${what} is not running (call start() first)`);
    return value;
  };
  const newDatabase = async () => {
    const url = await sharedPostgresCluster().createDatabase('e2e');
    databases.push(url);
    return url;
  };
  const s3PublicUrl = () => `http://localhost:${need(s3, 'S3 server').port}`;

  const startDependencies = async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-s3-'));
    chromaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chroma-'));
    // No bucket: the service creates it at start, as it does on a fresh object store.
    [s3, chroma, ollama] = await Promise.all([
      startS3Server({ directory: s3Dir }),
      startChromaServer({ dataDir: chromaDir }),
      FakeOllamaServer.start(),
    ]);
  };

  const stack: ProductionStack = {
    name: options.postgres ? 'scaled' : 'production',
    answerer: 'generative',
    dependencies: ['s3', 'chroma', 'ollama'],
    bucket,
    collection,
    get ollama() {
      return need(ollama, 'Ollama');
    },
    get s3() {
      return need(s3, 'S3 server');
    },
    get chroma() {
      return need(chroma, 'Chroma');
    },
    get s3PublicUrl() {
      return s3PublicUrl();
    },

    async start(env = {}) {
      starting ??= startDependencies();
      await starting;
      const service = await startTestService({
        S3_ENDPOINT: need(s3, 'S3 server').url,
        // Another name for the same server: upload URLs must be signed for the address clients use.
        S3_PUBLIC_URL: s3PublicUrl(),
        S3_ACCESS_KEY: need(s3, 'S3 server').accessKey,
        S3_SECRET_KEY: need(s3, 'S3 server').secretKey,
        S3_BUCKET: bucket,
        CHROMA_URL: need(chroma, 'Chroma').url,
        CHROMA_COLLECTION: collection,
        OLLAMA_URL: need(ollama, 'Ollama').url,
        OLLAMA_CHAT_MODEL: CHAT_MODEL,
        OLLAMA_EMBED_MODEL: EMBED_MODEL,
        OLLAMA_TIMEOUT_MS: '10000',
        // A DATABASE_URL given in `env` puts several services on one database (scale-out); else each gets its own.
        ...(options.postgres && !env.DATABASE_URL ? { DATABASE_URL: await newDatabase() } : {}),
        ...env,
      });
      services.push(service);
      return service;
    },

    uploadUrlPrefix: () => `${s3PublicUrl()}/${bucket}/`,

    expiredUploadUrl(signedUrl) {
      // Signed two hours ago for one hour. (s3rver checks the expiry but not the signature; a real S3 server refuses both.)
      const url = new URL(signedUrl);
      const then = new Date(Date.now() - 2 * 3600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      url.searchParams.set('X-Amz-Date', then);
      url.searchParams.set('X-Amz-Expires', '3600');
      return url.toString();
    },

    async storedObjectKeys() {
      const server = need(s3, 'S3 server');
      const client = new S3Client({
        endPoint: '127.0.0.1',
        port: server.port,
        useSSL: false,
        accessKey: server.accessKey,
        secretKey: server.secretKey,
        region: 'us-east-1',
        pathStyle: true,
      });
      if (!(await client.bucketExists(bucket))) return [];
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, '', true)) {
        if ((item as { name?: string }).name) keys.push((item as { name: string }).name);
      }
      return keys.sort();
    },

    vectorRecordCount(filter = {}) {
      const index = new ChromaVectorIndex({ url: need(chroma, 'Chroma').url, collection });
      return index.count(filter);
    },

    async stopDependency(name) {
      if (down.has(name)) return;
      down.add(name);
      if (name === 's3') await need(s3, 'S3 server').stop();
      else if (name === 'chroma') await need(chroma, 'Chroma').stop();
      else await need(ollama, 'Ollama').close();
    },

    async restartDependency(name, options = {}) {
      if (!down.has(name)) return;
      if (options.withoutData) {
        if (name !== 'chroma') throw new Error('productionStack: only Chroma restarts without its data');
        fs.rmSync(chromaDir!, { recursive: true, force: true });
        fs.mkdirSync(chromaDir!);
      }
      if (name === 's3') s3 = await startS3Server({ port: need(s3, 'S3 server').port, directory: s3Dir });
      else if (name === 'chroma') chroma = await startChromaServer({ port: need(chroma, 'Chroma').port, dataDir: chromaDir });
      else {
        const previous = need(ollama, 'Ollama');
        ollama = await FakeOllamaServer.start({ port: Number(new URL(previous.url).port), chat: previous.chatScript, models: previous.models });
      }
      down.delete(name);
    },

    async close() {
      await closeAll(services);
      await Promise.allSettled(databases.splice(0).map((url) => sharedPostgresCluster().dropDatabase(url)));
      if (starting) await starting.catch(() => {});
      const stops: Promise<void>[] = [];
      if (s3 && !down.has('s3')) stops.push(s3.stop());
      if (chroma && !down.has('chroma')) stops.push(chroma.stop());
      if (ollama && !down.has('ollama')) stops.push(ollama.close());
      await Promise.allSettled(stops);
      for (const dir of [s3Dir, chromaDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
      down.clear();
      s3 = chroma = ollama = undefined;
      starting = undefined;
    },
  };
  return stack;
}

/** Both configurations, embedded first: `for (const makeStack of STACKS) describe(...)`. */
export const STACKS: readonly StackFactory[] = [embeddedStack, () => productionStack()];

/** The scaled configuration: the production stack on PostgreSQL. */
export const scaledStack = (): ProductionStack => productionStack({ postgres: true });

/**
 * The stacks the conformance suites (foundation, ingestion and chat) run on: both of STACKS, and the scaled one where
 * PostgreSQL's server binaries are here (else one skipped test says why).
 */
export const CONFORMANCE_STACKS: readonly StackFactory[] = postgresUnavailableReason() ? STACKS : [...STACKS, scaledStack];
// Under mocha only (a bench may import this module): say once why the scaled stack's suites are absent.
if (typeof describe === 'function') describeWithPostgres('conformance suites on the scaled stack (PostgreSQL)', () => {});

async function closeAll(services: TestService[]): Promise<void> {
  const all = services.splice(0);
  await Promise.allSettled(all.map((s) => s.close()));
}
