/** The service as production runs it, for benchmarks: dist/ compiled by tsc, started with plain node. */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { SERVICE_MALLOC_ENV, SERVICE_NODE_FLAGS } from '../server/node-flags.js';
import { REPO_ROOT } from '../test/support/paths.js';

/** Compiles dist/ (tsc -p tsconfig.build.json; incremental, so seconds when little changed). */
export function buildDist(): void {
  // BENCH_SKIP_BUILD=1: run dist/ as it was last built (e.g. when tsc reports errors in a part the bench does not use).
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc -p tsconfig.build.json failed');
}

/** Arguments for `node`: the service's Node options (as `npm start` and the image pass them), the compiled entry point, no loader flags. */
export const COMPILED_SERVER_ARGS = [...SERVICE_NODE_FLAGS, 'dist/server/main.js'];

/**
 * The environment to start the compiled service with: `base` (usually this process's, adjusted) over the glibc malloc
 * settings `npm start` and the image use (SERVICE_MALLOC_ENV): a bench may set another value of one to compare.
 */
export function compiledServerEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVICE_MALLOC_ENV, ...base };
}
