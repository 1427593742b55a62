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

/**
 * `pinned` hits first (each once, scored as the best ranked hit so no passage looks weaker for it), then the ranked
 * ones not pinned, `limit` in all: passages a planner's search found (core/ports/query-planner.ts) are kept whatever
 * the fusion made of them.
 */
export function withPinned(pinned: ChunkHit[], ranked: ChunkHit[], limit: number): ChunkHit[] {
  const top = Math.max(0, ...ranked.map((h) => h.score), ...pinned.map((h) => h.score));
  const seen = new Set<string>();
  const out: ChunkHit[] = [];
  for (const hit of [...pinned.map((h) => ({ ...h, score: top })), ...ranked]) {
    if (seen.has(hit.chunk.id)) continue;
    seen.add(hit.chunk.id);
    out.push(hit);
  }
  return out.slice(0, limit);
}
