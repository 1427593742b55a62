import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

export const WEB_SOURCE = path.join(REPO_ROOT, 'web');
export const WEB_DIST = path.join(REPO_ROOT, 'dist', 'web');

function newestSourceMtime(): number {
  let newest = 0;
  for (const entry of fs.readdirSync(WEB_SOURCE, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the web app into dist/web unless the build there is newer than every file of web/ (a lone clone has no
 * build; `npm test` must not depend on `npm run build` having been run). About 3 s when it builds.
 */
export function ensureWebBuilt(): void {
  const index = path.join(WEB_DIST, 'index.html');
  const built = fs.statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > newestSourceMtime()) return;
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', path.join(WEB_SOURCE, 'vite.config.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the web app did not build:\n${result.stdout}\n${result.stderr}`);
}
