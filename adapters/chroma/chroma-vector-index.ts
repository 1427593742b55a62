import {
  ChromaClient,
  ChromaConnectionError,
  ChromaForbiddenError,
  ChromaNotFoundError,
  ChromaRateLimitError,
  ChromaServerError,
  ChromaUnauthorizedError,
  type Collection,
  type Metadata,
  type Where,
} from 'chromadb';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { Chunk } from '../../core/domain/model.js';
import type { DependencyProbe } from '../../core/ports/health-check.js';
import type { ChunkHit, IndexQuery, IndexedChunk, JobCopy, LeadingChunksQuery, VectorIndex } from '../../core/ports/vector-index.js';

export interface ChromaVectorIndexOptions {
  /** The Chroma server, e.g. `http://127.0.0.1:8000` (https for TLS). No path prefix: the client cannot use one. */
  url: string;
  /** Collection name: 3–512 characters of `[a-zA-Z0-9._-]`, starting and ending with a letter or digit. */
  collection: string;
  /** Time limit for one call to Chroma, in ms (default 15 000); past it the call fails as unavailable. */
  timeoutMs?: number;
  /** Records per upsert (default 256, lowered to the server's max batch size if that is smaller). */
  batchSize?: number;
}

/** Chunk fields kept as Chroma metadata; the caller's tags are added as `tag_<key>`. */
const TAG_PREFIX = 'tag_';
/** Ids fetched per page when counting with a filter. */
const COUNT_PAGE = 10_000;
const DEPENDENCY = 'vector index';

/**
 * Dense index on a Chroma server (chromadb v3 client, server 1.x). One collection, cosine space, no embedding
 * function: embeddings come from the core's Embedder. A record per chunk: id = chunk id, document = text,
 * metadata = sessionId, jobId, filename, page, ordinal and each tag as `tag_<key>` (Chroma metadata is flat).
 *
 * Failures to reach Chroma (connection refused, timeout, 5xx, 429, rejected credentials) become
 * UpstreamUnavailableError('vector index'); a malformed request (wrong dimension, …) is thrown as Chroma reports it.
 */
export class ChromaVectorIndex implements VectorIndex, DependencyProbe {
  readonly kind = 'dense' as const;
  readonly name = 'chroma';

  private readonly client: ChromaClient;
  private readonly url: string;
  private readonly collectionName: string;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private collection: Promise<Collection> | undefined;

  constructor(options: ChromaVectorIndexOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`ChromaVectorIndex: url must be http(s), got ${options.url}`);
    }
    if (url.pathname !== '/' && url.pathname !== '') {
      throw new Error(`ChromaVectorIndex: url must not have a path (the Chroma client ignores it), got ${options.url}`);
    }
    assertCollectionName(options.collection);
    const ssl = url.protocol === 'https:';
    this.client = new ChromaClient({
      host: url.hostname,
      port: url.port ? Number(url.port) : ssl ? 443 : 80,
      ssl,
    });
    this.url = url.origin;
    this.collectionName = options.collection;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.batchSize = options.batchSize ?? 256;
  }

  /**
   * Gets or creates the collection (cosine space, no embedding function). Called at start; the other methods call
   * it too when it has not succeeded yet. Throws if an existing collection of that name uses another distance.
   */
  async init(): Promise<void> {
    await this.getCollection();
  }

  /** Readiness: the server answers its heartbeat. */
  async check(): Promise<void> {
    await this.call('heartbeat', () => this.client.heartbeat());
  }

  async add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (chunks.length === 0) return;
    for (const c of chunks) {
      if (!c.embedding || c.embedding.length === 0) {
        throw new Error(`ChromaVectorIndex.add: chunk ${c.id} has no embedding (a dense index needs one per chunk)`);
      }
    }
    // Chroma rejects duplicate ids in one request; the port says a later chunk replaces an earlier one.
    const latest = [...new Map(chunks.map((c) => [c.id, c])).values()];
    const maxBatch = await this.call('max batch size', () => this.client.getMaxBatchSize());
    const size = maxBatch > 0 ? Math.min(this.batchSize, maxBatch) : this.batchSize;
    for (let i = 0; i < latest.length; i += size) {
      if (i > 0) signal?.throwIfAborted();
      const batch = latest.slice(i, i + size);
      const ids = batch.map((c) => c.id);
      // Upsert merges metadata keys into an existing record's (a tag dropped since would survive): delete first.
      await this.onCollection('delete before upsert', (collection) => collection.delete({ ids }));
      await this.onCollection('upsert', (collection) =>
        collection.upsert({
          ids,
          embeddings: batch.map((c) => c.embedding!),
          documents: batch.map((c) => c.text),
          metadatas: batch.map(toMetadata),
        }),
      );
    }
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    if (!query.embedding) {
      throw new Error('ChromaVectorIndex.search needs query.embedding: a dense index ranks by the query embedding');
    }
    if (query.limit < 1 || query.jobIds?.length === 0) return [];
    const conditions: Where[] = [{ sessionId: query.sessionId }];
    for (const f of query.filters ?? []) conditions.push({ [`${TAG_PREFIX}${f.tag}`]: { $in: f.values } });
    if (query.jobIds) conditions.push({ jobId: { $in: [...query.jobIds] } });
    const result = await this.onCollection('query', (collection) =>
      collection.query({
        queryEmbeddings: [query.embedding!],
        nResults: Math.floor(query.limit),
        where: whereAll(conditions),
        include: ['documents', 'metadatas', 'distances'],
      }),
    );
    const ids = result.ids[0] ?? [];
    const hits: ChunkHit[] = [];
    ids.forEach((id, i) => {
      const metadata = result.metadatas[0]?.[i];
      const distance = result.distances[0]?.[i];
      if (!metadata || distance === null || distance === undefined) return;
      // Cosine distance is 1 - cosine similarity: the score is the similarity, in [-1, 1].
      hits.push({ chunk: toChunk(id, result.documents[0]?.[i] ?? '', metadata), score: 1 - distance });
    });
    return hits;
  }

  async leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]> {
    if (query.perJob < 1 || query.jobIds?.length === 0) return [];
    const conditions: Where[] = [{ sessionId: query.sessionId }, { ordinal: { $lt: Math.floor(query.perJob) } }];
    if (query.jobIds) conditions.push({ jobId: { $in: [...query.jobIds] } });
    for (const f of query.filters ?? []) conditions.push({ [`${TAG_PREFIX}${f.tag}`]: { $in: f.values } });
    const where = whereAll(conditions);
    const chunks: Chunk[] = [];
    for (let offset = 0; ; offset += COUNT_PAGE) {
      const page = await this.onCollection('leading chunks', (collection) =>
        collection.get({ where, include: ['documents', 'metadatas'], limit: COUNT_PAGE, offset }),
      );
      page.ids.forEach((id, i) => {
        const metadata = page.metadatas[i];
        if (metadata) chunks.push(toChunk(id, page.documents[i] ?? '', metadata));
      });
      if (page.ids.length < COUNT_PAGE) break;
    }
    // Chroma returns them in no particular order.
    return chunks.sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.ordinal - b.ordinal));
  }

  async deleteByJob(jobId: string, fromOrdinal = 0): Promise<void> {
    const where: Where = fromOrdinal > 0 ? whereAll([{ jobId }, { ordinal: { $gte: fromOrdinal } }]) : { jobId };
    await this.onCollection('delete by job', (collection) => collection.delete({ where }));
  }

  async deleteBySession(sessionId: string): Promise<void> {
    await this.onCollection('delete by session', (collection) => collection.delete({ where: { sessionId } }));
  }

  /**
   * Reads the source's records a batch at a time, embeddings included, and writes them under the target's ids and
   * metadata; records the target has already are left as they are (Chroma has no server-side copy).
   */
  async copyJob(copy: JobCopy): Promise<void> {
    const existing = await this.onCollection('copy: target ids', (collection) =>
      collection.get({ where: { jobId: copy.toJobId }, include: [], limit: COUNT_PAGE }),
    );
    const held = new Set(existing.ids);
    for (let offset = 0; ; offset += this.batchSize) {
      const page = await this.onCollection('copy: read', (collection) =>
        collection.get({ where: { jobId: copy.fromJobId }, include: ['documents', 'metadatas', 'embeddings'], limit: this.batchSize, offset }),
      );
      const chunks: IndexedChunk[] = [];
      page.ids.forEach((id, i) => {
        const metadata = page.metadatas[i];
        const embedding = page.embeddings[i];
        if (!metadata || !embedding) return;
        const source = toChunk(id, page.documents[i] ?? '', metadata);
        const target = `${copy.toJobId}:${source.ordinal}`;
        if (!held.has(target)) chunks.push({ ...source, id: target, jobId: copy.toJobId, sessionId: copy.toSessionId, embedding: [...embedding] });
      });
      await this.add(chunks);
      if (page.ids.length < this.batchSize) return;
    }
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    const conditions: Where[] = [];
    if (filter.sessionId !== undefined) conditions.push({ sessionId: filter.sessionId });
    if (filter.jobId !== undefined) conditions.push({ jobId: filter.jobId });
    if (conditions.length === 0) return this.onCollection('count', (collection) => collection.count());
    // Chroma has no filtered count: page through the matching ids (nothing else is fetched).
    const where = whereAll(conditions);
    let total = 0;
    for (let offset = 0; ; offset += COUNT_PAGE) {
      const page = await this.onCollection('count', (collection) => collection.get({ where, include: [], limit: COUNT_PAGE, offset }));
      total += page.ids.length;
      if (page.ids.length < COUNT_PAGE) return total;
    }
  }

  /**
   * Runs one call on the collection. The collection handle is kept after the first open; when Chroma no longer
   * knows it (deleted, or the server restarted without its data), the handle is dropped and the collection opened
   * (created) again once, instead of every later call failing until this process restarts.
   */
  private async onCollection<T>(what: string, operation: (collection: Collection) => Promise<T>): Promise<T> {
    const pending = this.getCollection();
    const collection = await pending;
    try {
      return await this.call(what, () => operation(collection));
    } catch (error) {
      if (!(error instanceof ChromaNotFoundError)) throw error;
      if (this.collection === pending) this.collection = undefined;
      const reopened = await this.getCollection();
      return this.call(what, () => operation(reopened));
    }
  }

  private getCollection(): Promise<Collection> {
    if (!this.collection) {
      this.collection = this.openCollection();
      // A failed attempt is not remembered: the next call tries again.
      this.collection.catch(() => (this.collection = undefined));
    }
    return this.collection;
  }

  private async openCollection(): Promise<Collection> {
    const collection = await this.call('get or create collection', () =>
      this.client.getOrCreateCollection({
        name: this.collectionName,
        embeddingFunction: null,
        configuration: { hnsw: { space: 'cosine' } },
      }),
    );
    const config = collection.configuration;
    const space = config?.hnsw?.space ?? config?.spann?.space ?? undefined;
    if (space && space !== 'cosine') {
      throw new Error(
        `ChromaVectorIndex: collection ${this.collectionName} uses the ${space} distance; it must use cosine (use another collection name)`,
      );
    }
    return collection;
  }

  /** Runs one Chroma call with the time limit, turning "Chroma is not there" into UpstreamUnavailableError. */
  private async call<T>(what: string, operation: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UpstreamUnavailableError(DEPENDENCY, `Chroma at ${this.url} did not answer (${what}) within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([operation(), timeout]);
    } catch (error) {
      if (isUnavailable(error)) {
        throw new UpstreamUnavailableError(DEPENDENCY, `Chroma at ${this.url} is unavailable (${what}): ${describe(error)}`, {
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

function isUnavailable(error: unknown): boolean {
  return (
    error instanceof ChromaConnectionError ||
    error instanceof ChromaServerError ||
    error instanceof ChromaRateLimitError ||
    error instanceof ChromaUnauthorizedError ||
    error instanceof ChromaForbiddenError ||
    // Whatever fetch threw before the client could wrap it.
    (error instanceof TypeError && /fetch failed/i.test(error.message))
  );
}

function describe(error: unknown): string {
  if (error instanceof ChromaConnectionError) return 'connection failed';
  return error instanceof Error ? error.message : String(error);
}

/** Chroma wants `$and` for more than one condition, and rejects `$and` with a single one. */
function whereAll(conditions: Where[]): Where {
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}

function toMetadata(chunk: IndexedChunk): Metadata {
  const metadata: Metadata = {
    sessionId: chunk.sessionId,
    jobId: chunk.jobId,
    filename: chunk.filename,
    page: chunk.page,
    ordinal: chunk.ordinal,
  };
  for (const [key, value] of Object.entries(chunk.tags)) metadata[`${TAG_PREFIX}${key}`] = value;
  return metadata;
}

function toChunk(id: string, text: string, metadata: Metadata): Chunk {
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key.startsWith(TAG_PREFIX)) tags[key.slice(TAG_PREFIX.length)] = String(value);
  }
  return {
    id,
    sessionId: String(metadata.sessionId),
    jobId: String(metadata.jobId),
    filename: String(metadata.filename),
    page: Number(metadata.page),
    ordinal: Number(metadata.ordinal),
    text,
    tags,
  };
}

function assertCollectionName(name: string): void {
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]$/.test(name) || name.includes('..')) {
    throw new Error(
      `ChromaVectorIndex: invalid collection name ${JSON.stringify(name)} (3–512 characters of a-z A-Z 0-9 . _ -, ` +
        'starting and ending with a letter or digit, no "..")',
    );
  }
}
