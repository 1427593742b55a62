import type { ChunkHit } from '../ports/vector-index.js';
import { DOCUMENT_PRIOR } from './document-prior.js';
import { echoedHeading, headingLines, namesTopicHeading } from './question-headings.js';
import { fileNameTerms, splitSentences, termKeys } from './text.js';

/** Lexical hits re-ranked per question: BM25 finds the paragraph in its top 50 far more often than in its top 5. */
export const RERANK_POOL = 50;

/**
 * What the re-ranker looks at for one hit, each in 0..1 so the weights compare. Order matters: RERANK_WEIGHTS holds
 * one weight per feature in this order.
 */
export const RERANK_FEATURES = [
  'bm25', // the index's score relative to the best hit
  'rankPrior', // 1 / (1 + BM25 rank)
  'coverage', // share of the query's IDF weight (IDF over the pool) present in the chunk
  'termShare', // share of the distinct query terms present (unweighted)
  'bigrams', // share of consecutive query-term pairs that also stand together in the chunk
  'bestSentence', // IDF share of the query in the chunk's best-matching sentence (the answer sits in one sentence)
  'proximity', // how tightly the matched terms sit together: distinct terms over the shortest window holding them
  'filename', // share of the query's IDF weight in the document's file name (documents are often named for their topic)
  'documentVotes', // share of the pool's BM25 mass from the same document (a document that matches often is on topic)
] as const;

/**
 * One weight per RERANK_FEATURES entry, fitted by bench/train-answerer.ts (a softmax over each question's pool) on the
 * 16 SQuAD training articles only; re-fit after changing a feature or the chunking.
 */
export const RERANK_WEIGHTS: readonly number[] = [5.33, 0.48, 0.70, 2.27, 2.47, 3.23, 0.72, 0.53, 2.52];

/**
 * The hits re-ordered by the weighted features (best first); scores are left as the index gave them. A document
 * prior (core/rag/document-prior.ts), when the session has several documents, adds its weighted value to each hit of
 * the document (0 for a document it does not name). Hits under a heading the question repeats
 * (core/rag/question-headings.ts) come before the others, then hits whose own heading names the question's topic.
 */
export function rerank(query: string, hits: ChunkHit[], weights: readonly number[] = RERANK_WEIGHTS, documentPrior?: ReadonlyMap<string, number>): ChunkHit[] {
  const features = rerankFeatures(query, hits);
  const prior = (hit: ChunkHit) => (documentPrior ? DOCUMENT_PRIOR.weight * (documentPrior.get(hit.chunk.jobId) ?? 0) : 0);
  const scored = hits.map((hit, i) => ({
    hit, i,
    // A section whose question-shaped heading the question repeats ("Who Must Apply") comes first: the words that tell
    // it apart are stopwords, which no feature sees. Then one headed by the question's topic ("Employees").
    heading: headingRank(query, hit),
    s: features[i].reduce((sum, v, k) => sum + v * weights[k], 0) + prior(hit),
  }));
  return scored.sort((a, b) => b.heading - a.heading || b.s - a.s || a.i - b.i).map(({ hit }) => hit);
}

/** 2 under a heading the question repeats, 1 under one naming its topic, else 0; the chunk split into lines once. */
function headingRank(query: string, hit: ChunkHit): number {
  let lines: string[] | undefined;
  const headings = () => (lines ??= headingLines(hit.chunk.text));
  return echoedHeading(query, hit.chunk.text, headings) ? 2 : namesTopicHeading(query, hit.chunk.text, hit.chunk.filename, headings) ? 1 : 0;
}

/** The feature vector of every hit (same order), for ranking and for fitting the weights. */
export function rerankFeatures(query: string, hits: ChunkHit[]): number[][] {
  const terms = termKeys(query);
  const unique = [...new Set(terms)];
  if (hits.length === 0) return [];
  const chunkTokens = hits.map((h) => termKeys(h.chunk.text));
  const sets = chunkTokens.map((t) => new Set(t));
  const idf = new Map(unique.map((t) => {
    const df = sets.filter((s) => s.has(t)).length;
    return [t, Math.log(1 + (hits.length - df + 0.5) / (df + 0.5))];
  }));
  const total = unique.reduce((sum, t) => sum + idf.get(t)!, 0) || 1;
  const weightOf = (set: Set<string>) => unique.reduce((sum, t) => sum + (set.has(t) ? idf.get(t)! : 0), 0) / total;
  const pairs = [...new Set(terms.slice(1).flatMap((t, i) => (t === terms[i] ? [] : [`${terms[i]} ${t}`])))];
  const top = Math.max(...hits.map((h) => h.score), 1e-9);
  const mass = new Map<string, number>();
  for (const h of hits) mass.set(h.chunk.filename, (mass.get(h.chunk.filename) ?? 0) + Math.max(0, h.score) / top);
  const totalMass = [...mass.values()].reduce((a, b) => a + b, 0) || 1;
  return hits.map((hit, i) => {
    const joined = ` ${chunkTokens[i].join(' ')} `;
    const sentences = splitSentences(hit.chunk.text).map((s) => weightOf(new Set(termKeys(s))));
    return [
      Math.max(0, hit.score) / top,
      1 / (1 + i),
      weightOf(sets[i]),
      unique.length > 0 ? unique.filter((t) => sets[i].has(t)).length / unique.length : 0,
      pairs.length > 0 ? pairs.filter((p) => joined.includes(` ${p} `)).length / pairs.length : 0,
      Math.max(0, ...sentences),
      proximity(chunkTokens[i], new Set(unique)),
      weightOf(new Set(fileNameTerms(hit.chunk.filename))),
      mass.get(hit.chunk.filename)! / totalMass,
    ];
  });
}

/** Distinct query terms over the length of the shortest window holding all the matched ones (1 when tight). */
export function proximity(tokens: string[], asked: Set<string>): number {
  const wanted = new Set(tokens.filter((t) => asked.has(t)));
  if (wanted.size <= 1) return wanted.size;
  const counts = new Map<string, number>();
  let best = Infinity;
  let from = 0;
  for (let to = 0; to < tokens.length; to++) {
    if (!wanted.has(tokens[to])) continue;
    counts.set(tokens[to], (counts.get(tokens[to]) ?? 0) + 1);
    while (counts.size === wanted.size) {
      best = Math.min(best, to - from + 1);
      const t = tokens[from++];
      if (!wanted.has(t)) continue;
      const c = counts.get(t)! - 1;
      if (c === 0) counts.delete(t);
      else counts.set(t, c);
    }
  }
  return wanted.size / best;
}
