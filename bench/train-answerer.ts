/**
 * Fits the lexical re-ranker's weights (RERANK_WEIGHTS in core/rag/rerank.ts), then the extractive answerer's sentence
 * weights (SENTENCE_WEIGHTS in adapters/extractive/extractive-answerer.ts) on the passages that re-ranking gives.
 * The 24 SQuAD articles are ingested as in the quality benchmark; only the questions of the 16 articles of
 * SQUAD_SPLIT.train are read, so the quality benchmark's figure on the other 8 stays held out. Each model is listwise
 * (a softmax per question, L2, damped Newton: bench/listwise.ts): chunks labelled by whether they hold the gold
 * paragraph and answer, sentences by whether they hold a gold answer. Prints the weights to paste in, and in-sample
 * containment; bench/squad-cv.ts cross-validates by article the choices (features, L2) behind them. Last, the gate
 * that says "not found" (ANSWERABILITY_WEIGHTS): each training question asked with its article and without it, a
 * logistic fit, its bias set by REFUSED_RIGHT (default 0.005), and the trade-off out of fold for several budgets.
 *
 *   npx tsx bench/train-answerer.ts            (TRAIN_DATA_DIR=dir keeps the ingested copy between runs)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createExtractiveAnswerer } from '../adapters/answer-plugins/index.js';
import { SENTENCE_FEATURES, SENTENCE_WEIGHTS } from '../adapters/extractive/extractive-answerer.js';
import { ANSWERABILITY_FEATURES, ANSWERABILITY_WEIGHTS, answerable } from '../adapters/extractive/answerability.js';
import type { ContextPassage } from '../core/ports/llm.js';
import type { ChunkHit, VectorIndex } from '../core/ports/vector-index.js';
import { DEFAULT_RETRIEVAL } from '../core/use-cases/ask-question.js';
import { lexicalQuery } from '../adapters/financial-statements/query-wording.js';
import { packContexts } from '../core/rag/context.js';
import { RERANK_FEATURES, RERANK_POOL, RERANK_WEIGHTS, rerank, rerankFeatures } from '../core/rag/rerank.js';
import { fitListwise } from './listwise.js';
import { TOKENS } from '../server/container.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { startTestService } from '../test/support/test-service.js';
import { contains, excerptFromParagraph, normalizeAnswer } from './metrics.js';
import { articlePdf, questionsOf, squadSession, readSquad, type SquadQuestion } from './squad-pdfs.js';

const L2 = 0.001;
/** The share of right answers (with their article) the gate may refuse on the training articles. */
const REFUSED_RIGHT = Number(process.env.REFUSED_RIGHT ?? 0.005);
/** A gate that never refuses: to see what the answerer would quote. */
const ALWAYS = [...ANSWERABILITY_FEATURES.map(() => 0).slice(0, -1), 1];

exitUnlessCorpus('Training the answerer (SQuAD questions)');
const squad = readSquad(fs.readFileSync(corpusPath('squad/squad-v1.1-dev-part-a.json'), 'utf8'));
const pdfs = await Promise.all(squad.articles.map((a) => articlePdf(a)));
const sanitize = pdfs[0].sanitize;
const dataDir = process.env.TRAIN_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'train-answerer-'));
fs.mkdirSync(dataDir, { recursive: true });
const test = await startTestService({}, dataDir);
try {
  const sessionId = await squadSession(test, dataDir, squad.articles, pdfs);

  const training = questionsOf(squad, 'train');
  const index = test.service.container.get<VectorIndex>(TOKENS.LexicalIndex);
  const pools = new Map<string, ChunkHit[]>();
  for (const q of training) pools.set(q.id, await index.search({ sessionId, text: lexicalQuery(q.question), limit: RERANK_POOL }));

  // 1. The re-ranker: a chunk is relevant when it holds the gold paragraph's words and a gold answer.
  const chunkGroups = training.flatMap((q) => {
    const golds = q.answers.map((a) => ` ${normalizeAnswer(sanitize(a))} `);
    const hits = pools.get(q.id)!;
    const x = rerankFeatures(lexicalQuery(q.question), hits);
    const y = hits.map((h) => (excerptFromParagraph(h.chunk.text, sanitize(q.paragraph)) && golds.some((g) => ` ${normalizeAnswer(h.chunk.text)} `.includes(g)) ? 1 : 0));
    return y.includes(1) ? [x.map((v, i) => ({ x: v, y: y[i] }))] : [];
  });
  const rerankWeights = fitListwise(chunkGroups, RERANK_FEATURES.length, L2);
  console.log(RERANK_FEATURES.map((name, i) => `  ${name.padEnd(18)} ${rerankWeights[i].toFixed(3)}`).join('\n'));
  console.log(`RERANK_WEIGHTS = [${rerankWeights.map((w) => w.toFixed(2)).join(', ')}]  (current [${RERANK_WEIGHTS.join(', ')}])`);

  // 2. The answerer, on the passages the fitted re-ranker gives.
  const contextsOf = (q: SquadQuestion): ContextPassage[] => {
    const hits = rerank(lexicalQuery(q.question), pools.get(q.id)!, rerankWeights).slice(0, DEFAULT_RETRIEVAL.candidates);
    return packContexts(hits, DEFAULT_RETRIEVAL.passages, DEFAULT_RETRIEVAL.contextChars).passages;
  };
  const answerer = createExtractiveAnswerer();
  const groups: { x: number[]; y: number }[][] = [];
  const trainingContexts = new Map<string, ContextPassage[]>();
  for (const q of training) {
    const contexts = contextsOf(q);
    trainingContexts.set(q.id, contexts);
    const golds = q.answers.map((a) => ` ${normalizeAnswer(sanitize(a))} `);
    const candidates = answerer.rankSentences({ question: q.question, contexts, history: [] });
    const labels = candidates.map((c) => (golds.some((g) => ` ${normalizeAnswer(c.text)} `.includes(g)) ? 1 : 0));
    if (!labels.includes(1)) continue;
    groups.push(candidates.map((c, i) => ({ x: c.features, y: labels[i] })));
  }

  const weights = fitListwise(groups, SENTENCE_FEATURES.length, L2);
  const containment = async (questions: SquadQuestion[], w: readonly number[]) => {
    let ok = 0;
    for (const q of questions) {
      const answer = await createExtractiveAnswerer({ weights: w }).answer({ question: q.question, contexts: trainingContexts.get(q.id)!, history: [] });
      if (contains(answer.text, q.answers.map(sanitize))) ok += 1;
    }
    return (ok / questions.length).toFixed(3);
  };
  console.log(`${groups.reduce((n, g) => n + g.length, 0)} sentences of ${groups.length} training questions whose passages hold the answer (of ${training.length})`);
  console.log(SENTENCE_FEATURES.map((name, i) => `  ${name.padEnd(18)} ${weights[i].toFixed(3)}`).join('\n'));
  console.log(`SENTENCE_WEIGHTS = [${weights.map((w) => w.toFixed(2)).join(', ')}]`);
  console.log(`containment, training articles (in-sample; bench/squad-cv.ts gives the cross-validated figure): current ${await containment(training, SENTENCE_WEIGHTS)}, fitted ${await containment(training, weights)}`);

  // 3. The gate that says "not found": each training question asked with its article (answerable) and of the other
  // articles alone (not), on the passages the product's retrieval gives either way.
  const api = await test.as('train-user');
  const documents = (await api.request<{ data: { id: string; filename: string }[] }>('GET', `/api/v1/session/${sessionId}/documents`)).body.data;
  const jobOf = (article: number) => documents.find((d) => d.filename.startsWith(`${String(article + 1).padStart(2, '0')}-`))!.id;
  const fitted = createExtractiveAnswerer();
  const gateRows: { x: number[]; y: number; kept: boolean; article: number }[] = [];
  for (const q of training) {
    const contexts = trainingContexts.get(q.id)!;
    const request = { question: q.question, contexts, history: [] };
    const answer = await createExtractiveAnswerer({ answerability: ALWAYS }).answer(request);
    gateRows.push({ x: fitted.answerabilityOf(request), y: 1, kept: contains(answer.text, q.answers.map(sanitize)), article: q.article });
    const others = documents.filter((d) => d.id !== jobOf(q.article)).map((d) => d.id);
    const hits = await index.search({ sessionId, text: lexicalQuery(q.question), limit: RERANK_POOL, jobIds: others });
    const without = packContexts(rerank(lexicalQuery(q.question), hits, rerankWeights).slice(0, DEFAULT_RETRIEVAL.candidates), DEFAULT_RETRIEVAL.passages, DEFAULT_RETRIEVAL.contextChars).passages;
    gateRows.push({ x: fitted.answerabilityOf({ question: q.question, contexts: without, history: [] }), y: 0, kept: false, article: q.article });
  }
  const gate = fitGate(gateRows, REFUSED_RIGHT);
  // Out of fold (4 folds of training articles): how a budget set on some articles holds on others.
  const articles = [...new Set(gateRows.map((r) => r.article))];
  for (const budget of [0.001, 0.0025, 0.005, 0.01, 0.02]) {
    let refusedRight = 0, right = 0, refusedWithout = 0, without = 0;
    for (let fold = 0; fold < 4; fold++) {
      const held = new Set(articles.filter((_, i) => i % 4 === fold));
      const w = fitGate(gateRows.filter((r) => !held.has(r.article)), budget);
      for (const r of gateRows.filter((r) => held.has(r.article))) {
        if (r.kept) (right++, (refusedRight += answerable(r.x, w) ? 0 : 1));
        if (r.y === 0) (without++, (refusedWithout += answerable(r.x, w) ? 0 : 1));
      }
    }
    console.log(`budget ${budget}: out of fold, right answers refused ${(refusedRight / right).toFixed(4)}, asked without their article refused ${(refusedWithout / without).toFixed(3)}`);
  }
  const rate = (rows: typeof gateRows, w: readonly number[]) => (rows.filter((r) => !answerable(r.x, w)).length / rows.length).toFixed(3);
  const right = gateRows.filter((r) => r.kept);
  const negatives = gateRows.filter((r) => r.y === 0);
  console.log(ANSWERABILITY_FEATURES.map((name, i) => `  ${name.padEnd(18)} ${gate[i].toFixed(3)}`).join('\n'));
  console.log(`ANSWERABILITY_WEIGHTS = [${gate.map((w) => w.toFixed(2)).join(', ')}]  (current [${ANSWERABILITY_WEIGHTS.join(', ')}])`);
  console.log(`refused, training articles (in-sample): answered right with the article ${rate(right, ANSWERABILITY_WEIGHTS)} current, ${rate(right, gate)} fitted; asked without it ${rate(negatives, ANSWERABILITY_WEIGHTS)} current, ${rate(negatives, gate)} fitted (${right.length} and ${negatives.length} questions)`);
} finally {
  await test.close({ keepData: Boolean(process.env.TRAIN_DATA_DIR) });
  if (!process.env.TRAIN_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The gate: a logistic regression (as a two-row softmax: the row's features against a row of zeros, probability
 * σ(w·x)), then its bias lowered until at most `budget` of the questions answered right with their article are refused.
 */
function fitGate(rows: { x: number[]; y: number; kept: boolean }[], budget: number): number[] {
  const zero = new Array(ANSWERABILITY_FEATURES.length).fill(0);
  const gate = fitListwise(rows.map((r) => [{ x: r.x, y: r.y }, { x: zero, y: 1 - r.y }]), ANSWERABILITY_FEATURES.length, L2);
  const keptScores = rows.filter((r) => r.kept).map((r) => r.x.reduce((sum, v, i) => sum + v * gate[i], 0)).sort((a, b) => a - b);
  gate[gate.length - 1] -= Math.min(0, keptScores[Math.floor(keptScores.length * budget)] - 1e-6);
  return gate;
}
