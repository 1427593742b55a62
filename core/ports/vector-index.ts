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
  /** Only chunks of these documents (ingest job ids). None: every document of the session. */
  jobIds?: readonly string[];
  limit: number;
}

export interface DocumentTermsQuery {
  sessionId: string;
  /** The words to count, as a query's text: the index picks and matches them as its search does. */
  text: string;
  /** As IndexQuery.filters: only chunks that meet every condition are counted. */
  filters?: readonly TagFilter[];
}

/** How one document holds a query's words, counted in chunks. */
export interface DocumentTerms {
  jobId: string;
  /** The document's chunks (those meeting the filters). */
  chunks: number;
  /** Per word of the query, in one order for every document of the answer: how many of those chunks hold it. */
  holding: number[];
}

export interface LeadingChunksQuery {
  sessionId: string;
  /** As IndexQuery.filters: only documents whose chunks meet every condition. */
  filters?: readonly TagFilter[];
  /** As IndexQuery.jobIds: only these documents. None: every document of the session. */
  jobIds?: readonly string[];
  /** The first this many chunks (ordinals 0 .. perJob - 1) of each document. */
  perJob: number;
}

export interface JobCopy {
  fromJobId: string;
  toJobId: string;
  toSessionId: string;
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
   * Every document of the session that has chunks meeting the filters, with how many of its chunks hold each of the
   * query's words: which documents a question's words point to (core/rag/document-prior.ts). Lexical indexes have it;
   * [] when the query has no word to count.
   */
  documentTerms?(query: DocumentTermsQuery): Promise<DocumentTerms[]>;
  /**
   * The opening chunks of every document of the session (that meets the filters), by document then ordinal: what
   * an overview of the documents is drawn from. No ranking, no query text.
   */
  leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]>;
  /**
   * Removes the job's chunks; with `fromOrdinal`, only those at that ordinal or later (what a run cut short wrote past
   * its last checkpoint, IngestJob.checkpoint).
   */
  deleteByJob(jobId: string, fromOrdinal?: number): Promise<void>;
  deleteBySession(sessionId: string): Promise<void>;
  /**
   * Copies every chunk of one document (`fromJobId`) as the chunks of another (`toJobId`, in `toSessionId`): the same
   * text, page, ordinal, tags and embedding, ids `${toJobId}:${ordinal}`. How a document of the library is added to
   * another session without being read again. Chunks the target already holds are kept (a repeated copy adds nothing).
   */
  copyJob(copy: JobCopy): Promise<void>;
  count(filter: { sessionId?: string; jobId?: string }): Promise<number>;
}
