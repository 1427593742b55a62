/** Starting extraction child processes: which file they run (a plain-JS bundle of the worker when running from TypeScript) and how. */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProcessTempDir } from '../system/process-temp-dir.js';
import type { WorkerStartData } from './protocol.js';

const bundledEntries = new Map<string, string>();

/**
 * The file an extraction child process runs. Compiled to .js, extraction-worker.js next to this file. Run from
 * TypeScript (tsx: the tests and the benches), the worker's own sources are bundled once per server
 * process into plain JavaScript with esbuild (the one tsx runs on), and the child runs that without tsx: tsx's loader
 * would otherwise re-transform pdf.js's multi-megabyte modules in every child, costing about 300 MB of memory per
 * child and seconds of start-up. Libraries stay external (loaded from node_modules as they are, through a symlink
 * next to the bundle).
 */
export function workerEntry(name = 'extraction-worker'): string {
  if (!import.meta.url.endsWith('.ts')) return fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  const bundled = bundledEntries.get(name);
  if (bundled && fs.existsSync(bundled)) return bundled;
  const require = createRequire(import.meta.url);
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const dir = makeProcessTempDir(`doc-chat-${name}`); // an earlier test run killed by a signal left its bundle
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  // Bare imports in the bundle resolve from its folder: point its node_modules at ours.
  const pdfjs = require.resolve('pdfjs-dist/package.json');
  const nodeModules = pdfjs.slice(0, pdfjs.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
  fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'), 'dir');
  const outfile = path.join(dir, `${name}.mjs`);
  buildSync({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    // A dynamic import stays one (a chunk of its own): inlined, its libraries' imports would be hoisted to the top of
    // the bundle, and every child would load pdf.js and @napi-rs/canvas whether it reads with them or not.
    splitting: true,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline', // stack traces from a child point into our sources
    logLevel: 'error',
  });
  bundledEntries.set(name, outfile);
  return outfile;
}

/**
 * glibc malloc settings of an extraction process; a value set in the server's environment wins. The OCR engine's
 * thread takes ~150 MB while scanned pages come; once it is stopped glibc kept ~60 MB of it (one run of two OCR'd
 * pages: 151 MB before, 213 after), ~26 MB with these: at most 2 arenas, and freed memory above 128 KiB given back
 * (trimmed from the heap's top; blocks of 128 KiB and more mmap'd, unmapped when freed). On issue 18's long PDF with
 * two processes: peak 338-371 → 308-325 MB each, median 265-292 → 216-256. Other C libraries (musl) ignore them.
 */
export const EXTRACTION_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/**
 * Forks the extraction worker (see workerEntry) with an IPC channel. The parent's execArgv is not inherited (tsx's
 * loader flags, --inspect and the like); only our own flags are given.
 */
export function startChild(startData: WorkerStartData, execArgv: string[]): ChildProcess {
  return fork(workerEntry(), [JSON.stringify(startData)], {
    execArgv,
    env: { ...EXTRACTION_MALLOC_ENV, ...process.env },
    serialization: 'advanced',
    // stdout is shared; stderr is piped (and passed on) so that a crash report can be put into the error.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
}

/** Whether the child (its process handle, IPC channel and stderr pipe) keeps this process's event loop alive. */
export function setRef(child: ChildProcess, ref: boolean): void {
  const stderr = child.stderr as Socket | null;
  if (ref) {
    child.ref();
    child.channel?.ref();
    stderr?.ref();
  } else {
    child.unref();
    child.channel?.unref();
    stderr?.unref();
  }
}

/**
 * Children of every reader, killed when this process exits without close() (e.g. process.exit()). They would exit
 * on their own once their IPC channel closes, but a busy child notices only between two pages.
 */
export const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});
