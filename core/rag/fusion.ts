import type { ChunkHit } from '../ports/vector-index.js';

/** The constant from Cormack et al. (2009): damps the weight of top ranks so no single list dominates. */
const RRF_K = 60;

/**
 * Reciprocal rank fusion of ranked lists (e.g. BM25 and dense). A chunk's fused score is the sum of 1/(k + rank)
 * over the lists it appears in. A single list passes through with its order unchanged.
 */
export function reciprocalRankFusion(lists: ChunkHit[][], limit: number): ChunkHit[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length <= 1) return (nonEmpty[0] ?? []).slice(0, limit);
  const fused = new Map<string, ChunkHit>();
  for (const list of nonEmpty) {
    list.forEach((hit, rank) => {
      const previous = fused.get(hit.chunk.id);
      const score = 1 / (RRF_K + rank + 1);
      fused.set(hit.chunk.id, { chunk: previous?.chunk ?? hit.chunk, score: (previous?.score ?? 0) + score });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
