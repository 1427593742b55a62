import type { ChunkHit } from './vector-index.js';

export interface RerankOptions {
  /** Aborted when the client left: the work may be dropped, and the promise then rejects. */
  signal?: AbortSignal;
  /** Per document (job id), how much the question points to it (core/rag/document-prior.ts). */
  documentPrior?: ReadonlyMap<string, number>;
}

/**
 * Re-orders a lexical index's hits for one question (core/rag/rerank.ts computes it). A port so that the CPU work can
 * run off the request thread (adapters/answer-pool).
 */
export interface HitReranker {
  rerank(query: string, hits: ChunkHit[], options?: RerankOptions): Promise<ChunkHit[]>;
}
