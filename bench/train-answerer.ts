/**
 * Fits the extractive answerer's sentence weights (SENTENCE_WEIGHTS in adapters/extractive/extractive-answerer.ts).
 * The 24 SQuAD articles are ingested as in the quality benchmark; the training questions are those of the 16 articles
 * of SQUAD_SPLIT.train, and containment is reported on the questions of the other 8 (SQUAD_SPLIT.report, what the
 * quality benchmark reports on), so the fitted weights are judged on articles they never saw. For each question
 * the embedded retrieval's passages are split into sentences, each labelled by whether it holds a gold answer, and a
 * listwise model (a softmax per question, L2, Newton's method) is fitted on the answerer's features. Prints the weights to
 * paste into the answerer, and containment on the training articles and on the held-out articles with old and new weights.
 *
 *   npx tsx bench/train-answerer.ts            (TRAIN_DATA_DIR=dir keeps the ingested copy between runs)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExtractiveAnswerer, SENTENCE_FEATURES, SENTENCE_WEIGHTS } from '../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../core/ports/llm.js';
import type { VectorIndex } from '../core/ports/vector-index.js';
import { DEFAULT_RETRIEVAL } from '../core/use-cases/ask-question.js';
import { lexicalQuery } from '../core/rag/query-terms.js';
import { packContexts } from '../core/rag/context.js';
import { TOKENS } from '../server/container.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { startTestService } from '../test/support/test-service.js';
import { contains, normalizeAnswer } from './metrics.js';
import { articlePdf, ingestArticles, questionsOf, readSquad, type SquadQuestion } from './squad-pdfs.js';

const L2 = 0.001;
const ITERATIONS = 25;

exitUnlessCorpus('Training the answerer (SQuAD questions)');
const squad = readSquad(fs.readFileSync(corpusPath('squad/squad-v1.1-dev-part-a.json'), 'utf8'));
const pdfs = await Promise.all(squad.articles.map((a) => articlePdf(a)));
const sanitize = pdfs[0].sanitize;
const dataDir = process.env.TRAIN_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'train-answerer-'));
fs.mkdirSync(dataDir, { recursive: true });
const marker = path.join(dataDir, 'squad-session-id');
const test = await startTestService({}, dataDir);
try {
  let sessionId: string;
  if (fs.existsSync(marker)) sessionId = fs.readFileSync(marker, 'utf8');
  else {
    const api = await test.as('train-user');
    sessionId = await api.createSession('SQuAD training');
    await ingestArticles(api, sessionId, squad.articles, pdfs);
    fs.writeFileSync(marker, sessionId);
  }

  const reported = questionsOf(squad, 'report');
  const training = questionsOf(squad, 'train');
  const index = test.service.container.get<VectorIndex>(TOKENS.LexicalIndex);
  const contextsOf = async (q: SquadQuestion): Promise<ContextPassage[]> => {
    const hits = await index.search({ sessionId, text: lexicalQuery(q.question), limit: DEFAULT_RETRIEVAL.candidates });
    return packContexts(hits, DEFAULT_RETRIEVAL.passages, DEFAULT_RETRIEVAL.contextChars).passages;
  };
  const answerer = new ExtractiveAnswerer();

  // Training rows: every ranked sentence of every training question whose passages hold a gold answer.
  const groups: { x: number[]; y: number }[][] = [];
  const trainingContexts = new Map<string, ContextPassage[]>();
  for (const q of training) {
    const contexts = await contextsOf(q);
    trainingContexts.set(q.id, contexts);
    const golds = q.answers.map((a) => ` ${normalizeAnswer(sanitize(a))} `);
    const candidates = answerer.rankSentences({ question: q.question, contexts, history: [] });
    const labels = candidates.map((c) => (golds.some((g) => ` ${normalizeAnswer(c.text)} `.includes(g)) ? 1 : 0));
    if (!labels.includes(1)) continue;
    groups.push(candidates.map((c, i) => ({ x: c.features, y: labels[i] })));
  }

  const weights = fitListwise(groups, SENTENCE_FEATURES.length);
  const containment = async (questions: SquadQuestion[], w: readonly number[]) => {
    let ok = 0;
    for (const q of questions) {
      const contexts = trainingContexts.get(q.id) ?? (await contextsOf(q));
      const answer = await withWeights(w).answer({ question: q.question, contexts, history: [] });
      if (contains(answer.text, q.answers.map(sanitize))) ok += 1;
    }
    return (ok / questions.length).toFixed(3);
  };
  console.log(`${groups.reduce((n, g) => n + g.length, 0)} sentences of ${groups.length} training questions whose passages hold the answer (of ${training.length})`);
  console.log(SENTENCE_FEATURES.map((name, i) => `  ${name.padEnd(18)} ${weights[i].toFixed(3)}`).join('\n'));
  console.log(`SENTENCE_WEIGHTS = [${weights.map((w) => w.toFixed(2)).join(', ')}]`);
  console.log(`containment, training articles: current ${await containment(training, SENTENCE_WEIGHTS)}, fitted ${await containment(training, weights)}`);
  console.log(`containment, held-out articles: current ${await containment(reported, SENTENCE_WEIGHTS)}, fitted ${await containment(reported, weights)}`);
} finally {
  await test.close({ keepData: Boolean(process.env.TRAIN_DATA_DIR) });
  if (!process.env.TRAIN_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The answerer with other weights, to compare. */
function withWeights(weights: readonly number[]): ExtractiveAnswerer {
  return new (class extends ExtractiveAnswerer {
    override rankSentences(request: Parameters<ExtractiveAnswerer['rankSentences']>[0]) {
      return super.rankSentences(request, weights);
    }
  })();
}

/**
 * Per question, a softmax over its sentences, maximising the probability of the sentences holding the answer (the
 * first places are what the answer quotes). Newton steps on the Fisher matrix plus L2: a few exact steps.
 */
function fitListwise(questions: { x: number[]; y: number }[][], features: number): number[] {
  const w = new Array(features).fill(0);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const gradient = new Array(features).fill(0);
    const hessian = Array.from({ length: features }, () => new Array(features).fill(0));
    for (const rows of questions) {
      const z = rows.map(({ x }) => x.reduce((sum, v, i) => sum + v * w[i], 0));
      const top = Math.max(...z);
      const e = z.map((v) => Math.exp(v - top));
      const total = e.reduce((a, b) => a + b, 0);
      const positive = rows.reduce((sum, r, i) => sum + (r.y ? e[i] : 0), 0);
      const mean = new Array(features).fill(0);
      rows.forEach(({ x, y }, k) => {
        const p = e[k] / total;
        const q = y ? e[k] / positive : 0;
        for (let i = 0; i < features; i++) {
          mean[i] += p * x[i];
          gradient[i] += (p - q) * x[i];
          for (let j = 0; j < features; j++) hessian[i][j] += p * x[i] * x[j];
        }
      });
      for (let i = 0; i < features; i++) for (let j = 0; j < features; j++) hessian[i][j] -= mean[i] * mean[j];
    }
    for (let i = 0; i < features; i++) {
      gradient[i] += L2 * questions.length * w[i];
      hessian[i][i] += L2 * questions.length + 1e-9;
    }
    const step = solve(hessian, gradient);
    for (let i = 0; i < features; i++) w[i] -= step[i];
    if (Math.max(...step.map(Math.abs)) < 1e-6) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting: a x = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = col + 1; r < n; r++) {
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r][n];
    for (let c = r + 1; c < n; c++) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
  return x;
}
