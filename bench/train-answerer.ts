/**
 * Fits the lexical re-ranker's weights (RERANK_WEIGHTS in core/rag/rerank.ts), then the extractive answerer's sentence
 * weights (SENTENCE_WEIGHTS in adapters/extractive/extractive-answerer.ts) on the passages that re-ranking gives.
 * The 24 SQuAD articles are ingested as in the quality benchmark; only the questions of the 16 articles of
 * SQUAD_SPLIT.train are read, so the quality benchmark's figure on the other 8 stays held out. Each model is listwise
 * (a softmax per question, L2, damped Newton: bench/listwise.ts): chunks labelled by whether they hold the gold
 * paragraph and answer, sentences by whether they hold a gold answer. Prints the weights to paste in, and in-sample
 * containment; bench/squad-cv.ts cross-validates by article the choices (features, L2) behind them.
 *
 *   npx tsx bench/train-answerer.ts            (TRAIN_DATA_DIR=dir keeps the ingested copy between runs)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createExtractiveAnswerer } from '../adapters/answer-plugins/index.js';
import { SENTENCE_FEATURES, SENTENCE_WEIGHTS } from '../adapters/extractive/extractive-answerer.js';
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
} finally {
  await test.close({ keepData: Boolean(process.env.TRAIN_DATA_DIR) });
  if (!process.env.TRAIN_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}

