/** `npm run bench`: every benchmark, one after another, each in its own process. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = false;
for (const bench of ['idle-memory.ts', 'performance.ts', 'ingestion-limits.ts', 'quality.ts', 'search-scaling.ts', 'http-throughput.ts', 'overview.ts', 'page-images.ts', 'web-app.ts']) {
  console.log(`\n=== ${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench)], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
