/**
 * Tuning loop for FinanceBench, on the TUNE part only (bench/financebench-data.ts): the embedded pipeline run
 * in-process on cached extracted pages (bench/financebench-pages.ts), so a chunking, retrieval or answerer change is
 * measured in seconds instead of re-extracting every filing. Same steps as ingestion and AskQuestion with the
 * embedded defaults (chunkPages → SQLite FTS5 → packContexts → ExtractiveAnswerer → toSources); the reported figures
 * still come from bench/quality.ts over HTTP. Prints each question's evidence and cited pages and the answer.
 *
 *   npx tsx bench/tune-financebench.ts [question-id-substring]
 */
import { createExtractiveAnswerer } from '../adapters/answer-plugins/index.js';
import { openSqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteFtsIndex } from '../adapters/sqlite/sqlite-fts-index.js';
import { chunkPages } from '../core/rag/chunking.js';
import { packContexts, toSources } from '../core/rag/context.js';
import { DEFAULT_RETRIEVAL } from '../core/use-cases/ask-question.js';
import { lexicalQuery } from '../adapters/financial-statements/query-wording.js';
import { lineItemSearches } from '../adapters/financial-statements/financial-metrics.js';
import { withPinned } from '../core/rag/fusion.js';
import { score } from './financebench.js';
import { readFinanceQuestions } from './financebench-data.js';
import { filingPages, lazyExtractor } from './financebench-pages.js';

const only = process.argv[2];
const questions = readFinanceQuestions('tune').filter((q) => !only || q.id.includes(only));
const extractor = lazyExtractor();
const database = openSqliteDatabase(':memory:');
const index = new SqliteFtsIndex(database);
const answerer = createExtractiveAnswerer();
let hits = 0;
let figures = 0;
let carried = 0;
try {
  for (const doc of [...new Set(questions.map((q) => q.doc))]) {
    const pages = await filingPages(doc, extractor.get);
    const sessionId = `tune-${doc}`;
    await index.add(chunkPages(pages).map((d) => ({
      id: `${doc}:${d.ordinal}`, sessionId, jobId: doc, filename: doc, page: d.page, ordinal: d.ordinal, text: d.text, tags: {},
    })));
    for (const q of questions.filter((x) => x.doc === doc)) {
      const search = (text: string) => index.search({ sessionId, text, limit: DEFAULT_RETRIEVAL.candidates });
      const items = await Promise.all(lineItemSearches(q.question).map(async (s) => s.holding(await index.search({ sessionId, text: s.text, limit: s.limit }))));
      const found = withPinned(items.flatMap((hits) => hits.slice(0, 1)), await search(lexicalQuery(q.question)), DEFAULT_RETRIEVAL.candidates);
      const packed = packContexts(found, DEFAULT_RETRIEVAL.passages, DEFAULT_RETRIEVAL.contextChars);
      const answer = await answerer.answer({ question: q.question, contexts: packed.passages, history: [] });
      const sources = answer.usedRefs.length > 0 ? toSources(packed, answer.usedRefs, DEFAULT_RETRIEVAL.sources, q.question) : [];
      const r = score(q, answer.text, sources);
      hits += r.pageHit ? 1 : 0;
      if (r.figure !== undefined) (figures += 1), (carried += r.figure ? 1 : 0);
      console.log(`\n${q.id} ${q.doc} [${q.question_type}] page ${r.pageHit ? 'HIT' : 'miss'}${r.figure === undefined ? '' : `, figure ${r.figure ? 'HIT' : 'miss'}`}`);
      console.log(`  Q: ${q.question.slice(0, 300)}\n  gold: ${q.answer.slice(0, 120)}  evidence ${r.evidence.join(',')}  retrieved ${found.slice(0, 10).map((h) => h.chunk.page).join(',')}  cited ${r.cited.join(',')}`);
      console.log(`  A: ${answer.text.slice(0, 500).replace(/\n/g, ' ')}`);
    }
  }
  console.log(`\ntune part: evidence page ±1 ${(hits / questions.length).toFixed(3)} of ${questions.length}; figure ${figures ? (carried / figures).toFixed(3) : '-'} of ${figures}`);
} finally {
  await extractor.close();
  await database.close();
}
