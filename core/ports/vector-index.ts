import type { Chunk } from '../domain/model.js';
import type { TagFilter } from '../domain/tags.js';

export interface IndexedChunk extends Chunk {
  /** Present when an Embedder is configured; lexical indexes ignore it. */
  embedding?: number[];
}

export interface IndexQuery {
  sessionId: string;
  text: string;
  /** The query's embedding, when an Embedder is configured. A dense index needs it; a lexical one ignores it. */
  embedding?: number[];
  /** Only chunks whose tags meet every condition (each: the tag equals one of the values). None: every chunk. */
  filters?: readonly TagFilter[];
  limit: number;
}

export interface LeadingChunksQuery {
  sessionId: string;
  /** As IndexQuery.filters: only documents whose chunks meet every condition. */
  filters?: readonly TagFilter[];
  /** The first this many chunks (ordinals 0 .. perJob - 1) of each document. */
  perJob: number;
}

export interface ChunkHit {
  chunk: Chunk;
  /** Higher is better; comparable only within one index's answer. */
  score: number;
}

/**
 * Retrieval over chunks. `lexical` indexes rank by the query text (BM25), `dense` ones by the query embedding;
 * the ask-question use case fuses the two when both exist.
 */
export interface VectorIndex {
  readonly kind: 'lexical' | 'dense';
  /**
   * Adding a chunk id that exists replaces it. Once `signal` is aborted nothing more is written and the call rejects
   * with its reason (an index that writes in several steps checks it between them), so a cancelled ingestion cannot
   * add chunks after its session was emptied.
   */
  add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void>;
  search(query: IndexQuery): Promise<ChunkHit[]>;
  /**
   * The opening chunks of every document of the session (that meets the filters), by document then ordinal: what
   * an overview of the documents is drawn from. No ranking, no query text.
   */
  leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]>;
  deleteByJob(jobId: string): Promise<void>;
  deleteBySession(sessionId: string): Promise<void>;
  count(filter: { sessionId?: string; jobId?: string }): Promise<number>;
}
