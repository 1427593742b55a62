/**
 * What the document library saves (issue 50): a real 10-K ingested into one session (upload, extraction, chunking,
 * indexing) against the same document added to a second session from the library (its chunks copied, nothing read).
 * The service runs compiled in its own process (SQLite, local files), as production runs it. Times only: no question
 * or answer of FinanceBench is read. `npx tsx bench/library-add.ts [filing.pdf]` (default 3M_2018_10K.pdf); prints JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../test/support/api-client.js';
import { FINANCEBENCH_DIR } from './financebench-data.js';
import { SECRET, startServer } from './service-bench.js';

const filing = process.argv[2] ?? '3M_2018_10K.pdf';
const file = path.join(FINANCEBENCH_DIR, 'pdfs', filing);
if (!fs.existsSync(file)) {
  console.error(`skipped: ${file} is not here (the FinanceBench filings are in shared/data)`);
  process.exit(0);
}

const server = await startServer();
try {
  const client = new ApiClient(server.baseUrl, await signLocalToken(SECRET, 'library-bench'));
  const bytes = new Uint8Array(fs.readFileSync(file));
  const first = await client.createSession('ingested');
  const t0 = performance.now();
  const { jobId } = await client.uploadAndIngest(first, filing, bytes, 'application/pdf');
  const job = await client.waitForJob(jobId, 600_000);
  const ingestMs = performance.now() - t0;
  if (job.status !== 'completed') throw new Error(`the ingest did not complete: ${JSON.stringify(job)}`);

  const library = await client.get('/api/v1/documents');
  const documentId = library.body.data.find((d: { filename: string }) => d.filename === filing).id as string;
  const adds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const session = await client.createSession(`added ${i + 1}`);
    const t1 = performance.now();
    const added = await client.post(`/api/v1/session/${session}/documents`, { documentId });
    adds.push(performance.now() - t1);
    if (added.status !== 201 || added.body.data.chunks !== job.chunks) throw new Error(`the add failed: ${added.status} ${added.text}`);
  }
  const median = [...adds].sort((a, b) => a - b)[1];
  console.log(JSON.stringify({
    filing, bytes: bytes.length, pages: job.pages, chunks: job.chunks,
    ingestMs: Math.round(ingestMs), libraryAddMs: adds.map((ms) => Math.round(ms)), libraryAddMedianMs: Math.round(median),
    speedup: Math.round(ingestMs / median),
  }, null, 2));
} finally {
  await server.stop();
}
