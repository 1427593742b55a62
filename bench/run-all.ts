/** `npm run bench`: every benchmark, one after another, each in its own process. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = false;
// history-under-load.ts: issue 48's history latency under chat load and throughput against a minimal server.
// chat-under-load.ts twice: the embedded stack, then PostgreSQL (issue 19 asks for both). pdf-reader-speed.ts: both PDF
// readers (PDF_READER) on the long real PDF, one process each. tatqa.ts twice: its dev part, then its validation part
// (figures only); about two minutes each. tatqa-rewordings.ts: the dev part's answered questions reworded;
// tatqa-templates.ts: questions generated from every dev table's cells.
const benches: [string, Record<string, string>][] = [
  ['idle-memory.ts', {}], ['performance.ts', {}], ['ingestion-limits.ts', {}], ['long-documents.ts', {}], ['pdf-reader-speed.ts', {}],
  ['quality.ts', {}], ['tatqa.ts', { TATQA_PART: 'dev' }], ['tatqa.ts', { TATQA_PART: 'validation' }],
  ['tatqa-rewordings.ts', {}], ['tatqa-templates.ts', {}], ['search-scaling.ts', {}],
  ['http-throughput.ts', {}], ['history-under-load.ts', {}], ['chat-under-load.ts', {}], ['chat-under-load.ts', { BENCH_STACK: 'postgres' }],
  ['overview.ts', {}], ['page-images.ts', {}], ['passage-marks.ts', {}], ['web-app.ts', {}], ['formats.ts', {}],
];
for (const [bench, env] of benches) {
  console.log(`\n=== ${bench}${Object.keys(env).length > 0 ? ` (${new URLSearchParams(env).toString()})` : ''}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench)], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
