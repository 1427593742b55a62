/**
 * Tuning loop for FinanceBench, on the TUNE part only (bench/financebench-data.ts): the embedded pipeline run
 * in-process on cached extracted pages (bench/financebench-pages.ts), so a chunking, retrieval or answerer change is
 * measured in seconds instead of re-extracting every filing. Chunks go to SQLite FTS5 as ingestion writes them, and
 * each question goes through RetrieveAndAnswer with the embedded defaults (the financial-statements plug-in, the
 * extractive answerer), as AskQuestion runs it; the reported figures still come from bench/quality.ts over HTTP.
 * Prints each question's evidence and cited pages and the answer.
 *
 *   npx tsx bench/tune-financebench.ts [--shared] [question-id-substring]
 *
 * --shared puts every tune filing in one session, as bench/financebench.ts's 'shared' mode does: the question's
 * filing must then be found among the others.
 */
import { answerPlugins, createExtractiveAnswerer, DEFAULT_ANSWER_PLUGINS } from '../adapters/answer-plugins/index.js';
import { openSqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteFtsIndex } from '../adapters/sqlite/sqlite-fts-index.js';
import { chunkPages } from '../core/rag/chunking.js';
import { RetrieveAndAnswer } from '../core/use-cases/retrieve-and-answer.js';
import { score } from './financebench.js';
import { readFinanceQuestions } from './financebench-data.js';
import { filingPages, lazyExtractor } from './financebench-pages.js';

const shared = process.argv.includes('--shared');
const only = process.argv.slice(2).find((arg) => arg !== '--shared');
const questions = readFinanceQuestions('tune').filter((q) => !only || q.id.includes(only));
const extractor = lazyExtractor();
const database = openSqliteDatabase(':memory:');
const index = new SqliteFtsIndex(database);
const answerer = createExtractiveAnswerer();
const answering = new RetrieveAndAnswer({
  indexes: [index],
  llm: answerer,
  planners: answerPlugins(DEFAULT_ANSWER_PLUGINS).map((plugin) => plugin.planner),
});
let hits = 0;
let figures = 0;
let carried = 0;
let otherFirst = 0;
const docs = [...new Set(readFinanceQuestions('tune').map((q) => q.doc))];
const sessionOf = (doc: string) => (shared ? 'tune-shared' : `tune-${doc}`);
try {
  for (const doc of docs) {
    const pages = await filingPages(doc, extractor.get);
    await index.add(chunkPages(pages).map((d) => ({
      id: `${doc}:${d.ordinal}`, sessionId: sessionOf(doc), jobId: doc, filename: doc, page: d.page, ordinal: d.ordinal, text: d.text, tags: {},
    })));
  }
  for (const q of questions) {
    const sessionId = sessionOf(q.doc);
    const visibleJobIds = shared ? docs : [q.doc];
    const retrieved = await answering.retrieve({ userId: 'tune', sessionId, question: q.question, history: [], filters: [], visibleJobIds });
    const answer = await answerer.answer(retrieved.request);
    const sources = answering.sourcesOf(retrieved, answer);
    const r = score(q, answer.text, sources);
    hits += r.pageHit ? 1 : 0;
    otherFirst += r.otherFilingFirst ? 1 : 0;
    if (r.figure !== undefined) (figures += 1), (carried += r.figure ? 1 : 0);
    const retrievedPages = retrieved.packed.passages.map((p) => (p.filename === q.doc ? '' : `${p.filename.split('_')[0]}:`) + p.page);
    console.log(`\n${q.id} ${q.doc} [${q.question_type}] page ${r.pageHit ? 'HIT' : 'miss'}${r.figure === undefined ? '' : `, figure ${r.figure ? 'HIT' : 'miss'}`}`);
    console.log(`  Q: ${q.question.slice(0, 300)}\n  gold: ${q.answer.slice(0, 120)}  evidence ${r.evidence.join(',')}  passages ${retrievedPages.join(',')}  cited ${r.cited.join(',')}`);
    console.log(`  A: ${answer.text.slice(0, 500).replace(/\n/g, ' ')}`);
  }
  console.log(`\ntune part: evidence page ±1 ${(hits / questions.length).toFixed(3)} of ${questions.length}; figure ${figures ? (carried / figures).toFixed(3) : '-'} of ${figures}${shared ? `; first source from another filing ${otherFirst}` : ''}`);
} finally {
  await extractor.close();
  await database.close();
}
