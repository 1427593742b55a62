/**
 * Does search cost follow the session, or the whole store? (issue 10, SQLite part)
 * The 24 SQuAD articles are ingested into one session over HTTP; chat p95 is measured on 100 sampled questions with
 * the session alone in the store, then again after 80 other sessions received copies of its chunks (about 100k chunks
 * in all). The same run also times the lexical query in the form used before the session scope (MATCH over every
 * session, then a session filter) against the scoped one, on the crowded store.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SqliteDatabase } from '../adapters/sqlite/database.js';
import { toMatchExpression } from '../adapters/sqlite/sqlite-fts-index.js';
import { TOKENS } from '../server/tokens.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { startTestService } from '../test/support/test-service.js';
import { percentile, sample, seededRandom } from './metrics.js';
import { articlePdf, ingestArticles, readSquad } from './squad-pdfs.js';

const OTHER_SESSIONS = 80;
const QUESTIONS = 100;
const TARGET_RATIO = 1.5;

async function main(): Promise<void> {
  exitUnlessCorpus('The search scaling benchmark');
  const squadFile = corpusPath('squad/squad-v1.1-dev-part-a.json');
  const squad = readSquad(fs.readFileSync(squadFile, 'utf8'));
  const pdfs = await Promise.all(squad.articles.map((a) => articlePdf(a)));
  const test = await startTestService();
  try {
    const api = await test.as('scaling-user');
    const sessionId = await api.createSession('SQuAD alone');
    await ingestArticles(api, sessionId, squad.articles, pdfs);
    const questions = sample(squad.questions, QUESTIONS, seededRandom(7)).map((q) => q.question);

    const chatP95 = async () => {
      const latencies: number[] = [];
      for (const question of questions) {
        const t0 = performance.now();
        const res = await api.ask(sessionId, question);
        latencies.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`chat: ${res.status} ${res.text}`);
      }
      return percentile(latencies, 95);
    };
    await chatP95(); // warm-up: statement caches, page cache
    const alone = await chatP95();

    const database = test.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
    const own = database.raw.prepare('SELECT count(*) AS n FROM chunks WHERE session_id = ?').get(sessionId) as { n: number };
    const copy = database.raw.prepare(
      `INSERT INTO chunks (id, session_id, job_id, filename, page, ordinal, text, tags_json, institution)
       SELECT ? || ':' || id, ?, ? || ':' || job_id, filename, page, ordinal, text, tags_json, institution
       FROM chunks WHERE session_id = ?`,
    );
    database.raw.transaction(() => {
      for (let i = 0; i < OTHER_SESSIONS; i++) copy.run(`copy${i}`, `other-session-${i}`, `copy${i}`, sessionId);
    })();
    const total = database.raw.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number };
    await chatP95();
    const crowded = await chatP95();

    // The query shape before the session scope, on the same crowded store, beside the scoped one.
    const unscoped = database.raw.prepare(
      `SELECT c.id, bm25(chunks_fts, 1.0, 0.0) AS rank FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH @match AND c.session_id = @session ORDER BY rank LIMIT 24`,
    );
    const scope = Buffer.from(sessionId, 'utf8').toString('hex');
    const queryP95 = (scoped: boolean) => {
      const latencies: number[] = [];
      for (const question of questions) {
        const terms = toMatchExpression(question);
        if (!terms) continue;
        const match = scoped ? `scope : "${scope}" AND text : (${terms})` : `text : (${terms})`;
        const t0 = performance.now();
        unscoped.all({ match, session: sessionId });
        latencies.push(performance.now() - t0);
      }
      return percentile(latencies, 95);
    };
    const oldQuery = queryP95(false);
    const newQuery = queryP95(true);

    const ratio = crowded / alone;
    console.log(`search scaling (SQLite FTS5): ${own.n} chunks in the session, ${total.n} in the store (${OTHER_SESSIONS} other sessions)`);
    console.log(`  chat p95 session alone       ${alone.toFixed(1)} ms`);
    console.log(`  chat p95 with other sessions ${crowded.toFixed(1)} ms`);
    console.log(`  ratio                        ${ratio.toFixed(2)}  (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})`);
    console.log(`  lexical query p95 on the crowded store: unscoped MATCH ${oldQuery.toFixed(2)} ms, session-scoped ${newQuery.toFixed(2)} ms (${(oldQuery / newQuery).toFixed(1)}×)`);
    if (ratio > TARGET_RATIO) process.exitCode = 1;
  } finally {
    await test.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
