/**
 * Cross-validation by article inside the 16 SQuAD training articles (SQUAD_SPLIT.train), in-process on the hits
 * dumped by bench/squad-hits.ts: for each of 4 folds the re-ranker's weights, then the answerer's, are fitted on the
 * other 12 articles and containment and source hit@5 measured on the fold's 4. Decisions (features, L2) are made on
 * these figures; the 8 held-out articles are never read here.
 *
 *   npx tsx bench/squad-cv.ts [hits.json]
 * SQUAD_CV_RERANK=off: BM25 order; SQUAD_CV_DROP=a,b: without those features; RERANK_L2, SENTENCE_L2: other L2;
 * SQUAD_CV_RESCORE=1: re-ranked hits carry the re-ranker's score.
 */
import fs from 'node:fs';
import { createExtractiveAnswerer } from '../adapters/answer-plugins/index.js';
import { SENTENCE_FEATURES } from '../adapters/extractive/extractive-answerer.js';
import type { ChunkHit } from '../core/ports/vector-index.js';
import { packContexts, toSources } from '../core/rag/context.js';
import { lexicalQuery } from '../adapters/financial-statements/query-wording.js';
import { RERANK_FEATURES, rerankFeatures } from '../core/rag/rerank.js';
import { DEFAULT_RETRIEVAL } from '../core/use-cases/ask-question.js';
import { fitListwise, type Row } from './listwise.js';
import { contains, excerptFromParagraph, normalizeAnswer } from './metrics.js';
import { SQUAD_SPLIT, articlePdf, type SquadQuestion } from './squad-pdfs.js';

type Question = SquadQuestion & { hits: ChunkHit[] };
const FOLDS = 4;
const RERANK_L2 = Number(process.env.RERANK_L2 ?? 0.001);
const SENTENCE_L2 = Number(process.env.SENTENCE_L2 ?? 0.001);
const file = process.argv[2] ?? '.bench-tmp/squad-train-hits.json';
const questions: Question[] = JSON.parse(fs.readFileSync(file, 'utf8')).questions;
const { sanitize } = await articlePdf({ title: 'x', paragraphs: ['x'] });
const titles = [...SQUAD_SPLIT.train];
const articleIds = [...new Set(questions.map((q) => q.article))].sort((a, b) => a - b);
if (articleIds.length !== titles.length) throw new Error('hits file is not the 16 training articles');
const foldOf = (q: Question) => articleIds.indexOf(q.article) % FOLDS;

/** Re-ranker rows: a chunk is relevant when it holds the gold paragraph's words and a gold answer. */
export function rerankGroups(qs: Question[]): Row[][] {
  return qs.flatMap((q) => {
    const golds = q.answers.map((a) => ` ${normalizeAnswer(sanitize(a))} `);
    const paragraph = sanitize(q.paragraph);
    const x = featuresOf(q);
    const y = q.hits.map((h) => (excerptFromParagraph(h.chunk.text, paragraph) && golds.some((g) => ` ${normalizeAnswer(h.chunk.text)} `.includes(g)) ? 1 : 0));
    return y.includes(1) ? [x.map((v, i) => ({ x: v, y: y[i] }))] : [];
  });
}

/** Ablation: SQUAD_CV_DROP=name,name zeroes those features (re-ranker or answerer) in fitting, so their weight is 0. */
const DROP = new Set((process.env.SQUAD_CV_DROP ?? '').split(',').filter(Boolean));
const mask = (names: readonly string[], x: number[]) => x.map((v, i) => (DROP.has(names[i]) ? 0 : v));
/** SQUAD_CV_RESCORE=1: re-ranked hits carry exp(score - best score) instead of BM25's. */
const RESCORE = process.env.SQUAD_CV_RESCORE === '1';
const featureCache = new Map<string, number[][]>();
function featuresOf(q: Question): number[][] {
  if (!featureCache.has(q.id)) featureCache.set(q.id, rerankFeatures(lexicalQuery(q.question), q.hits).map((x) => mask(RERANK_FEATURES, x)));
  return featureCache.get(q.id)!;
}

function contextsOf(q: Question, weights: readonly number[] | null) {
  // The same order as core/rag/rerank.ts's rerank, from cached features.
  const x = featuresOf(q);
  const score = (i: number) => x[i].reduce((sum, v, k) => sum + v * weights![k], 0);
  const order = weights ? q.hits.map((hit, i) => ({ hit, i, s: score(i) })).sort((a, b) => b.s - a.s || a.i - b.i) : [];
  const top = order[0]?.s ?? 0;
  const hits = !weights ? q.hits : order.map((h) => (RESCORE ? { ...h.hit, score: Math.exp(h.s - top) } : h.hit));
  return packContexts(hits.slice(0, DEFAULT_RETRIEVAL.candidates), DEFAULT_RETRIEVAL.passages, DEFAULT_RETRIEVAL.contextChars);
}

function sentenceGroups(qs: Question[], packed: Map<string, ReturnType<typeof contextsOf>>): Row[][] {
  const answerer = createExtractiveAnswerer();
  return qs.flatMap((q) => {
    const golds = q.answers.map((a) => ` ${normalizeAnswer(sanitize(a))} `);
    const candidates = answerer.rankSentences({ question: q.question, contexts: packed.get(q.id)!.passages, history: [] });
    const labels = candidates.map((c) => (golds.some((g) => ` ${normalizeAnswer(c.text)} `.includes(g)) ? 1 : 0));
    return labels.includes(1) ? [candidates.map((c, i) => ({ x: mask(SENTENCE_FEATURES, c.features), y: labels[i] }))] : [];
  });
}

async function measure(qs: Question[], packed: Map<string, ReturnType<typeof contextsOf>>, sentenceWeights: readonly number[]) {
  const answerer = createExtractiveAnswerer({ weights: sentenceWeights });
  let contained = 0;
  let hits = 0;
  for (const q of qs) {
    const p = packed.get(q.id)!;
    const answer = await answerer.answer({ question: q.question, contexts: p.passages, history: [] });
    if (contains(answer.text, q.answers.map(sanitize))) contained += 1;
    const sources = answer.usedRefs.length > 0 ? toSources(p, answer, DEFAULT_RETRIEVAL.sources, q.question) : [];
    const paragraph = sanitize(q.paragraph);
    if (sources.slice(0, 5).some((s) => excerptFromParagraph(s.excerpt, paragraph))) hits += 1;
    else if (sources.length === 0) misses.none += 1;
    else if ([...p.byRef.values()].slice(0, 5).some((h) => excerptFromParagraph(h.chunk.text, paragraph))) misses.excerpt += 1;
    else if (q.hits.some((h) => excerptFromParagraph(h.chunk.text, paragraph))) misses.ranking += 1;
    else misses.pool += 1;
  }
  return { contained, hits };
}

/** Why source hit@5 missed: no sources, the excerpt left the paragraph out, it ranked below 5, or not in the pool. */
const misses = { none: 0, excerpt: 0, ranking: 0, pool: 0 };
const useRerank = process.env.SQUAD_CV_RERANK !== 'off';
let contained = 0;
let hits = 0;
for (let fold = 0; fold < FOLDS; fold++) {
  const train = questions.filter((q) => foldOf(q) !== fold);
  const test = questions.filter((q) => foldOf(q) === fold);
  const rw = useRerank ? fitListwise(rerankGroups(train), RERANK_FEATURES.length, RERANK_L2) : null;
  const packed = new Map(questions.map((q) => [q.id, contextsOf(q, rw)]));
  const sw = fitListwise(sentenceGroups(train, packed), SENTENCE_FEATURES.length, SENTENCE_L2);
  const r = await measure(test, packed, sw);
  contained += r.contained;
  hits += r.hits;
  console.log(`fold ${fold}: ${test.length} questions, containment ${(r.contained / test.length).toFixed(3)}, hit@5 ${(r.hits / test.length).toFixed(3)}`);
  if (rw) console.log(`  rerank ${RERANK_FEATURES.map((f, i) => `${f}=${rw[i].toFixed(2)}`).join(' ')}`);
}
console.log(`hit@5 misses: ${JSON.stringify(misses)}`);
console.log(`CV (${FOLDS} folds by article, ${questions.length} questions): containment ${(contained / questions.length).toFixed(3)}, hit@5 ${(hits / questions.length).toFixed(3)}`);
