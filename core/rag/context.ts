import type { Source } from '../domain/model.js';
import type { ContextPassage } from '../ports/llm.js';
import type { ChunkHit } from '../ports/vector-index.js';
import { truncateWords } from './text.js';

export interface PackedContext {
  passages: ContextPassage[];
  /** The hit behind each passage, by ref. */
  byRef: Map<string, ChunkHit>;
}

/**
 * Keeps the best hits that fit a character budget (the model's context), numbering them "1", "2"… in rank order.
 * Exact duplicate texts (the same page ingested twice under different names) are kept once.
 */
export function packContexts(hits: ChunkHit[], maxPassages: number, maxChars: number): PackedContext {
  const passages: ContextPassage[] = [];
  const byRef = new Map<string, ChunkHit>();
  const seen = new Set<string>();
  let used = 0;
  for (const hit of hits) {
    if (passages.length >= maxPassages) break;
    const text = hit.chunk.text.trim();
    if (!text || seen.has(text)) continue;
    if (used + text.length > maxChars && passages.length > 0) break;
    seen.add(text);
    used += text.length;
    const ref = String(passages.length + 1);
    passages.push({ ref, filename: hit.chunk.filename, page: hit.chunk.page, text, score: hit.score });
    byRef.set(ref, hit);
  }
  return { passages, byRef };
}

export const EXCERPT_CHARS = 300;

/** Sources shown with an answer: the passages it used first, then the other retrieved ones. */
export function toSources(packed: PackedContext, usedRefs: string[], limit: number): Source[] {
  const order = [...new Set([...usedRefs.filter((r) => packed.byRef.has(r)), ...packed.byRef.keys()])];
  return order.slice(0, limit).map((ref) => {
    const hit = packed.byRef.get(ref)!;
    return {
      filename: hit.chunk.filename,
      page: hit.chunk.page,
      excerpt: truncateWords(hit.chunk.text, EXCERPT_CHARS),
      score: Number(hit.score.toFixed(6)),
      ingestId: hit.chunk.jobId,
    };
  });
}
