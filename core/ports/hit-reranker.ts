import type { ChunkHit } from './vector-index.js';

/**
 * Re-orders a lexical index's hits for one question (core/rag/rerank.ts computes it). A port so that the CPU work can
 * run off the request thread (adapters/answer-pool); aborting `signal` (the client left) may drop the work, and the
 * promise then rejects.
 */
export interface HitReranker {
  rerank(query: string, hits: ChunkHit[], signal?: AbortSignal): Promise<ChunkHit[]>;
}
