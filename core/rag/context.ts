import type { Source } from '../domain/model.js';
import type { ContextPassage } from '../ports/llm.js';
import type { ChunkHit } from '../ports/vector-index.js';
import { contentTokens, splitSentences, truncateWords } from './text.js';

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

export const EXCERPT_CHARS = 400;

/**
 * Sources shown with an answer, in retrieval order: the best `limit` passages, plus any passage the answer quoted
 * from further down, so every quote has its source listed.
 */
export function toSources(packed: PackedContext, usedRefs: string[], limit: number, question = ''): Source[] {
  const ranked = [...packed.byRef.keys()];
  const shown = new Set([...ranked.slice(0, limit), ...usedRefs.filter((r) => packed.byRef.has(r))]);
  return ranked.filter((ref) => shown.has(ref)).map((ref) => {
    const hit = packed.byRef.get(ref)!;
    return {
      filename: hit.chunk.filename,
      page: hit.chunk.page,
      excerpt: excerptFor(hit.chunk.text, question, EXCERPT_CHARS),
      score: Number(hit.score.toFixed(6)),
      ingestId: hit.chunk.jobId,
    };
  });
}

/**
 * The part of a chunk a reader should see: the sentence sharing most words with the question, widened with its
 * neighbours up to `maxChars`, with … where text was left out. Words match on their first five letters, a cheap
 * stand-in for stemming ("discriminated" ~ "discriminate").
 */
export function excerptFor(text: string, question: string, maxChars: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxChars) return clean;
  const sentences = splitSentences(clean);
  const asked = new Set(contentTokens(question).map((t) => t.slice(0, 5)));
  const hits = sentences.map((s) => new Set(contentTokens(s).map((t) => t.slice(0, 5)).filter((t) => asked.has(t))).size);
  let best = hits.indexOf(Math.max(...hits));
  if (best < 0) best = 0;
  if (sentences[best].length > maxChars) return `${best > 0 ? '… ' : ''}${truncateWords(sentences[best], maxChars)}`;
  let [from, to] = [best, best];
  let length = sentences[best].length;
  // Widen forwards first (answers follow the words they answer), then backwards, while it fits.
  for (let grew = true; grew; ) {
    grew = false;
    if (to + 1 < sentences.length && length + 1 + sentences[to + 1].length <= maxChars) length += 1 + sentences[++to].length, (grew = true);
    if (from > 0 && length + 1 + sentences[from - 1].length <= maxChars) length += 1 + sentences[--from].length, (grew = true);
  }
  return `${from > 0 ? '… ' : ''}${sentences.slice(from, to + 1).join(' ')}${to < sentences.length - 1 ? ' …' : ''}`;
}
