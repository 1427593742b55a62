import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let bundled: string | undefined;

/**
 * The file an extraction child process runs. Compiled to .js, extraction-worker.js next to this file. Run from
 * TypeScript (tsx: tests, `npm start`, the Docker image), the worker's own sources are bundled once per server
 * process into plain JavaScript with esbuild (the one tsx runs on), and the child runs that without tsx: tsx's loader
 * would otherwise re-transform pdf.js's multi-megabyte modules in every child, costing about 300 MB of memory per
 * child and seconds of start-up. Libraries stay external (loaded from node_modules as they are, through a symlink
 * next to the bundle).
 */
export function workerEntry(): string {
  if (!import.meta.url.endsWith('.ts')) return fileURLToPath(new URL('./extraction-worker.js', import.meta.url));
  if (bundled && fs.existsSync(bundled)) return bundled;
  const require = createRequire(import.meta.url);
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-extraction-worker-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  // Bare imports in the bundle resolve from its folder: point its node_modules at ours.
  const pdfParse = require.resolve('pdf-parse');
  const nodeModules = pdfParse.slice(0, pdfParse.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
  fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'), 'dir');
  const outfile = path.join(dir, 'extraction-worker.mjs');
  buildSync({
    entryPoints: [fileURLToPath(new URL('./extraction-worker.ts', import.meta.url))],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline', // stack traces from a child point into our sources
    logLevel: 'error',
  });
  bundled = outfile;
  return outfile;
}
