import type { Source } from '../domain/model.js';
import type { Answer, ContextPassage } from '../ports/llm.js';
import type { ChunkHit } from '../ports/vector-index.js';
import { opensContinued, withoutContinuedMark } from './chunking.js';
import { unitOf, type UnitLabels } from './place.js';
import { splitSentences, termKeys, truncateWords } from './text.js';

export interface PackedContext {
  passages: ContextPassage[];
  /** The hit behind each passage, by ref. */
  byRef: Map<string, ChunkHit>;
}

/**
 * Keeps the best hits that fit a character budget (the model's context), numbering them "1", "2"… in rank order.
 * Exact duplicate texts (the same page ingested twice under different names) are kept once.
 */
export function packContexts(hits: ChunkHit[], maxPassages: number, maxChars: number, units?: UnitLabels): PackedContext {
  const passages: ContextPassage[] = [];
  const byRef = new Map<string, ChunkHit>();
  const seen = new Set<string>();
  let used = 0;
  for (const hit of hits) {
    if (passages.length >= maxPassages) break;
    const text = withoutContinuedMark(hit.chunk.text).trim();
    if (!text || seen.has(text)) continue;
    if (used + text.length > maxChars && passages.length > 0) break;
    seen.add(text);
    used += text.length;
    const ref = String(passages.length + 1);
    const unit = unitOf(units, hit.chunk.jobId, hit.chunk.page);
    passages.push({ ref, filename: hit.chunk.filename, page: hit.chunk.page, ...(unit && { unit }), text, score: hit.score });
    byRef.set(ref, hit);
  }
  // A passage that continues a table (the chunking marks it) is joined to the chunk before it when both are here.
  const refAt = new Map([...byRef].map(([ref, hit]) => [`${hit.chunk.jobId}:${hit.chunk.ordinal}`, ref]));
  for (const passage of passages) {
    const { jobId, ordinal, text } = byRef.get(passage.ref)!.chunk;
    const before = opensContinued(text) ? refAt.get(`${jobId}:${ordinal - 1}`) : undefined;
    if (before) passage.continues = before;
  }
  return { passages, byRef };
}

export const EXCERPT_CHARS = 400;

/**
 * Sources shown with an answer: the best `limit` passages, plus any passage the answer quoted from further down, so
 * every quote has its source listed. The cited ones come first, in the order the answer numbers them ([1], [2], …), then
 * the others in retrieval order. Each says whether the answer quotes it, and by which number; its excerpt is the part of
 * the passage the answer quotes, or else the part that best matches the question.
 */
export function toSources(packed: PackedContext, { usedRefs, markers = {}, quotes = {} }: Pick<Answer, 'usedRefs' | 'markers' | 'quotes'>, limit: number, question = ''): Source[] {
  const ranked = [...packed.byRef.keys()];
  const used = new Set(usedRefs);
  const shown = new Set([...ranked.slice(0, limit), ...usedRefs.filter((r) => packed.byRef.has(r))]);
  const order = (ref: string) => (used.has(ref) ? (markers[ref] ?? Number.MAX_SAFE_INTEGER) : Infinity);
  const inOrder = ranked.filter((ref) => shown.has(ref)).map((ref, rank) => ({ ref, rank })).sort((a, b) => order(a.ref) - order(b.ref) || a.rank - b.rank);
  return inOrder.map(({ ref }) => {
    const hit = packed.byRef.get(ref)!;
    const unit = packed.passages[Number(ref) - 1]?.unit;
    return {
      filename: hit.chunk.filename,
      page: hit.chunk.page,
      ...(unit && { unit }),
      // The quoted words are the "question" the excerpt is centred on: the sentence holding most of them is the quote.
      excerpt: excerptFor(withoutContinuedMark(hit.chunk.text), (used.has(ref) && quotes[ref]) || question, EXCERPT_CHARS),
      score: Number(hit.score.toFixed(6)),
      ingestId: hit.chunk.jobId,
      cited: used.has(ref),
      ...(used.has(ref) && markers[ref] !== undefined && { marker: markers[ref] }),
      ...(used.has(ref) && quotes[ref] && { quote: quotes[ref] }),
    };
  });
}

/**
 * The part of a chunk a reader should see: the sentence that best matches the question, widened with its neighbours
 * up to `maxChars`, with … where text was left out. A sentence scores the question's words it holds (matched on
 * termKey), each weighted by how rare it is among the chunk's sentences (a word in every sentence says nothing about
 * which one answers), plus the question's word pairs it holds in order (a phrase is stronger evidence than its words).
 */
export function excerptFor(text: string, question: string, maxChars: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxChars) return clean;
  const sentences = splitSentences(clean);
  const best = bestSentence(sentences, question);
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

/** Index of the sentence matching the question best (see excerptFor); the first on ties, 0 when none matches. */
export function bestSentence(sentences: string[], question: string): number {
  const asked = termKeys(question);
  const unique = new Set(asked);
  const pairs = new Set(asked.slice(1).map((t, i) => `${asked[i]} ${t}`));
  const keys = sentences.map((s) => termKeys(s));
  const sets = keys.map((k) => new Set(k));
  const rarity = (t: string) => Math.log(1 + sentences.length / (1 + sets.filter((s) => s.has(t)).length));
  const scores = keys.map((k, i) => {
    const words = [...unique].reduce((sum, t) => sum + (sets[i].has(t) ? rarity(t) : 0), 0);
    const phrases = new Set(k.slice(1).map((t, j) => `${k[j]} ${t}`).filter((p) => pairs.has(p))).size;
    return words + phrases;
  });
  const top = Math.max(0, ...scores);
  return Math.max(0, scores.indexOf(top));
}
