/**
 * The FinanceBench section of the quality benchmark: each filing uploaded and ingested over HTTP, each question asked
 * in its filing's session. Measures whether a cited source names an evidence page (±1) of the question's filing, and
 * for figure questions (bench/figures.ts) whether the answer carries the gold figure.
 *
 * Sessions: 'per-filing' (one session per filing: the answer only has to find the page) or 'shared' (all filings of
 * the part in one session, as a user with a year of reports keeps them: the answer must also find the filing).
 * Per filing, each question is also asked of another company's filing, where the right answer is "not found".
 */
import fs from 'node:fs';
import type { ApiClient } from '../test/support/api-client.js';
import { isNotFoundAnswer } from '../core/rag/prompt.js';
import { isWeakMatchAnswer } from '../adapters/extractive/absent-names.js';
import { answerBody } from './metrics.js';
import { carriesFigure, goldFigure, isFigureQuestion } from './figures.js';
import { filingPath, readFinanceQuestions, type FinancePart, type FinanceQuestion } from './financebench-data.js';

export interface FinanceResult {
  part: FinancePart;
  mode: FinanceSessions;
  filings: number;
  pages: number;
  ingestSeconds: number;
  questions: number;
  evidencePageHit: number;
  /** The same, counting only the sources the answer quotes (`cited`), not the other passages listed with it. */
  quotedPageHit: number;
  figureQuestions: number;
  figureCarried: number;
  /** Questions whose first source is another filing (only possible with BENCH_FINANCEBENCH_SESSIONS=shared). */
  otherFilingFirst: number;
  /** One session per filing only: each question asked again in another company's filing's session, which cannot answer it. */
  elsewhere?: { asked: number; notFound: number; mayNotAnswer: number };
  /** Questions asked in their own filing's session whose answer says it may not answer (isWeakMatchAnswer). */
  mayNotAnswer: number;
  /** Per question; `mayNotAnswer`: its answer says it may not answer (written to .bench-tmp, to see which a change turns). */
  perQuestion: { id: string; pageHit: boolean; quotedPageHit: boolean; figure?: boolean; cited: number[]; evidence: number[]; otherFilingFirst: boolean; mayNotAnswer?: boolean }[];
}

/** A filing takes minutes on a loaded machine; the whole part is queued at once. */
const INGEST_TIMEOUT_MS = 3_600_000;

export type FinanceSessions = 'per-filing' | 'shared';

export async function runFinanceBench(api: ApiClient, part: FinancePart, mode: FinanceSessions = 'per-filing'): Promise<FinanceResult> {
  const questions = readFinanceQuestions(part);
  const docs = [...new Set(questions.map((q) => q.doc))];
  const started = Date.now();
  const sessions = new Map<string, { sessionId: string; jobId: string }>();
  const shared = mode === 'shared' ? await api.createSession(`FinanceBench ${part} filings`) : undefined;
  for (const doc of docs) {
    const sessionId = shared ?? (await api.createSession(`FinanceBench ${doc}`));
    const { jobId } = await api.uploadAndIngest(sessionId, doc, new Uint8Array(fs.readFileSync(filingPath(doc))), 'application/pdf');
    sessions.set(doc, { sessionId, jobId });
  }
  const jobs = await Promise.all([...sessions.values()].map(({ jobId }) => api.waitForJob(jobId, INGEST_TIMEOUT_MS)));
  const failed = jobs.filter((j) => j.status !== 'completed');
  if (failed.length > 0) throw new Error(`FinanceBench ingestion failed: ${JSON.stringify(failed)}`);
  const ingestSeconds = (Date.now() - started) / 1000;

  const perQuestion: FinanceResult['perQuestion'] = [];
  let mayNotAnswer = 0;
  for (const q of questions) {
    const res = await api.ask(sessions.get(q.doc)!.sessionId, q.question);
    if (res.status !== 200) throw new Error(`chat: ${res.status} ${res.text}`);
    const weak = isWeakMatchAnswer(res.body.data);
    perQuestion.push({ ...score(q, res.body.data, res.body.sources ?? []), mayNotAnswer: weak });
    if (weak) mayNotAnswer += 1;
  }
  // Per filing, each question is also asked of another company's filing: the right answer there is "not found".
  let elsewhere: FinanceResult['elsewhere'];
  if (mode === 'per-filing') {
    elsewhere = { asked: 0, notFound: 0, mayNotAnswer: 0 };
    const companyOf = new Map(questions.map((q) => [q.doc, q.company]));
    for (const [i, q] of questions.entries()) {
      const start = docs.indexOf(q.doc) + 1 + i; // moved on per question: not every question goes to one filing
      const other = docs.map((_, k) => docs[(start + k) % docs.length]).find((d) => companyOf.get(d) !== q.company);
      if (!other) continue;
      const res = await api.ask(sessions.get(other)!.sessionId, q.question);
      if (res.status !== 200) throw new Error(`chat: ${res.status} ${res.text}`);
      elsewhere.asked += 1;
      if (isNotFoundAnswer(res.body.data)) elsewhere.notFound += 1;
      else if (isWeakMatchAnswer(res.body.data)) elsewhere.mayNotAnswer += 1;
    }
  }
  const figures = perQuestion.filter((r) => r.figure !== undefined);
  return {
    part,
    mode,
    filings: docs.length,
    pages: jobs.reduce((n, j) => n + j.pages, 0),
    ingestSeconds: Number(ingestSeconds.toFixed(1)),
    questions: questions.length,
    evidencePageHit: ratio(perQuestion.filter((r) => r.pageHit).length, perQuestion.length),
    quotedPageHit: ratio(perQuestion.filter((r) => r.quotedPageHit).length, perQuestion.length),
    figureQuestions: figures.length,
    figureCarried: ratio(figures.filter((r) => r.figure).length, figures.length),
    otherFilingFirst: perQuestion.filter((r) => r.otherFilingFirst).length,
    mayNotAnswer,
    elsewhere,
    perQuestion,
  };
}

/** A cited page counts only in the question's own filing: in a shared session another filing's page 40 is a miss. */
export function score(q: FinanceQuestion, answer: string, sources: { filename: string; page: number; cited?: boolean }[]): FinanceResult['perQuestion'][number] {
  const evidence = [...new Set(q.evidence.map((e) => e.page))];
  const own = sources.filter((s) => s.filename === q.doc);
  const cited = own.map((s) => s.page);
  const near = (page: number) => evidence.some((e) => Math.abs(page - e) <= 1);
  const pageHit = cited.some(near);
  const quotedPageHit = own.some((s) => s.cited !== false && near(s.page));
  const gold = isFigureQuestion(q) ? goldFigure(q.answer) : undefined;
  const otherFilingFirst = sources.length > 0 && sources[0].filename !== q.doc;
  return { id: q.id, pageHit, quotedPageHit, figure: gold === undefined ? undefined : carriesFigure(answerBody(answer), q.answer), cited, evidence, otherFilingFirst };
}

function ratio(n: number, of: number): number {
  return of === 0 ? 0 : Number((n / of).toFixed(3));
}

export function printFinanceResult(r: FinanceResult, target: { pageHit: number; figure: number }, use: string): void {
  const verdict = (value: number, goal: number) => `target ≥ ${goal}: ${value >= goal ? 'met' : 'NOT met'}`;
  console.log(`\nFinanceBench, ${r.part} part (${use}), ${r.mode === 'shared' ? 'all filings in one session' : 'one session per filing'}`);
  console.log(`  ${r.filings} filings, ${r.pages} pages ingested in ${r.ingestSeconds} s, ${r.questions} questions`);
  if (r.mode === 'shared') console.log(`  first source from another filing        ${r.otherFilingFirst} of ${r.questions}`);
  console.log(`  evidence page among sources (±1)        ${r.evidencePageHit.toFixed(3)}  (${verdict(r.evidencePageHit, target.pageHit)})`);
  console.log(`    among the sources the answer quotes   ${r.quotedPageHit.toFixed(3)}  (no target: the other sources listed are passages found, not quoted)`);
  console.log(`  figure questions carrying the figure    ${r.figureCarried.toFixed(3)} of ${r.figureQuestions}  (${verdict(r.figureCarried, target.figure)})`);
  console.log(`  "may not answer" said in front of the quote: ${r.mayNotAnswer} of ${r.questions}  (no target)`);
  if (r.elsewhere) console.log(`  asked of another company's filing: "not found" ${r.elsewhere.notFound}, "may not answer" ${r.elsewhere.mayNotAnswer} of ${r.elsewhere.asked}  (no target: the right answer there)`);
}
