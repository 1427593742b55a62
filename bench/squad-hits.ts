/**
 * Dumps, for every question of the 16 SQuAD training articles (SQUAD_SPLIT.train), the lexical index's top
 * RERANK_POOL hits to a JSON file, so cross-validation (bench/squad-cv.ts) runs in-process without re-ingesting.
 * Held-out questions are not dumped: they are only ever asked by bench/quality.ts.
 *
 *   TRAIN_DATA_DIR=dir npx tsx bench/squad-hits.ts out.json
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { VectorIndex } from '../core/ports/vector-index.js';
import { lexicalQuery } from '../adapters/financial-statements/query-wording.js';
import { RERANK_POOL } from '../core/rag/rerank.js';
import { TOKENS } from '../server/container.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { startTestService } from '../test/support/test-service.js';
import { articlePdf, questionsOf, squadSession, readSquad } from './squad-pdfs.js';

exitUnlessCorpus('Dumping SQuAD hits');
const out = process.argv[2] ?? '.bench-tmp/squad-train-hits.json';
const squad = readSquad(fs.readFileSync(corpusPath('squad/squad-v1.1-dev-part-a.json'), 'utf8'));
const pdfs = await Promise.all(squad.articles.map((a) => articlePdf(a)));
const dataDir = process.env.TRAIN_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'squad-hits-'));
fs.mkdirSync(dataDir, { recursive: true });
const test = await startTestService({}, dataDir);
try {
  const sessionId = await squadSession(test, dataDir, squad.articles, pdfs);
  const index = test.service.container.get<VectorIndex>(TOKENS.LexicalIndex);
  const rows = [];
  for (const q of questionsOf(squad, 'train')) {
    const hits = await index.search({ sessionId, text: lexicalQuery(q.question), limit: RERANK_POOL });
    rows.push({ ...q, hits });
  }
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ sanitizeProbe: null, questions: rows }));
  console.log(`${rows.length} training questions, hits written to ${out}`);
} finally {
  await test.close({ keepData: Boolean(process.env.TRAIN_DATA_DIR) });
  if (!process.env.TRAIN_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}
