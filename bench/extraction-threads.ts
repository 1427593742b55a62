/**
 * Issue 18's memory target, a design not built: would extraction on worker threads inside one process (instead of the
 * pool's child processes, each a whole Node with its own copy of the runtime) fit in 500 MB? Reads the long real PDF
 * (or BENCH_FILE) twice, the same hour: with the extraction pool as the service runs it (ChildProcessDocumentReader,
 * EXTRACTION_WORKERS processes, default 2), and with the same DocumentExtractor, settings, 50-page ranges and cleanup
 * on as many worker threads in one plain `node` process (the compiled dist/, the pool's Node flags and malloc
 * settings). Prints, for each, pages, time, OCR'd pages and the resident memory extraction adds: the children's peak
 * for the pool; for the threads, the process's peak minus its own RSS before the threads start (a bare Node).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ChildProcessDocumentReader, DEFAULT_PROCESS_LIMITS, DEFAULT_RANGE_PAGES } from '../adapters/extraction/child-process-document-reader.js';
import { extractionNodeFlags } from '../adapters/extraction/extraction-process.js';
import { EXTRACTION_MALLOC_ENV } from '../adapters/extraction/worker-entry.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { buildDist } from './compiled-server.js';
import { longRealPdf, longRealPdfUnavailable } from './long-real-pdf.js';
import { PeakRssSampler } from './process-tree.js';

/** The threads' program (plain JavaScript on dist/): prints one JSON line. */
function threadsProgram(dist: string): string {
  return `import fs from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
const dist = ${JSON.stringify(dist)};
const kb = (name) => Number(new RegExp('^' + name + ':\\\\s+(\\\\d+)', 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
if (isMainThread) {
  const [file, pages, threads, rangePages, heapMb] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
  const bareMb = kb('VmRSS');
  let peak = { rss: 0, anon: 0, file: 0 }, next = 1, running = threads, read = 0, ocr = 0;
  const t0 = performance.now();
  const sampler = setInterval(() => { const rss = kb('VmRSS'); if (rss > peak.rss) peak = { rss, anon: kb('RssAnon'), file: kb('RssFile') }; }, 100);
  for (let i = 0; i < threads; i++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { file, heapMb }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    const give = () => {
      if (next > pages) { void worker.terminate(); if (--running === 0) end(); return; }
      worker.postMessage([next, Math.min(pages, next + rangePages - 1)]);
      next += rangePages;
    };
    worker.on('online', give);
    worker.on('message', (m) => { if (m === 'done') give(); else { read++; if (m === 'ocr') ocr++; } });
    worker.on('error', (error) => { console.error(error); process.exit(1); });
  }
  function end() {
    clearInterval(sampler);
    const mb = (n) => Math.round(n);
    console.log(JSON.stringify({ read, ocr, seconds: (performance.now() - t0) / 1000, bareMb: mb(bareMb), peakMb: mb(peak.rss), anonMb: mb(peak.anon), fileMb: mb(peak.file) }));
  }
} else {
  const { DocumentExtractor } = await import(dist + '/adapters/extraction/document-extractor.js');
  const { DEFAULT_EXTRACTION_SETTINGS } = await import(dist + '/adapters/extraction/child-process-document-reader.js');
  const { cleanupPolicy } = await import(dist + '/adapters/extraction/cleanup-policy.js');
  const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
  const { file, heapMb } = workerData;
  const cleanup = cleanupPolicy({ cleanupAboveHeapMb: Math.floor(heapMb / 2), collectAboveRssMb: Math.floor(heapMb / 4) });
  parentPort.on('message', async ([firstPage, lastPage]) => {
    await extractor.extract({ file }, 'pdf', { onPage: (page) => parentPort.postMessage(page.method), onProgress: () => {}, takeOcrPage: async () => true, ...cleanup },
      { firstPage, lastPage, keepOpenAs: file });
    parentPort.postMessage('done');
  });
}
`;
}

async function main(): Promise<void> {
  let file = process.env.BENCH_FILE;
  let pages: number;
  if (file) {
    pages = Number(spawnSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).stdout.trim());
  } else {
    const unavailable = longRealPdfUnavailable();
    if (unavailable) return void console.log(`extraction on threads: skipped (${unavailable})`);
    ({ file, pages } = longRealPdf());
  }
  const workers = Number(process.env.EXTRACTION_WORKERS ?? 2);

  const reader = new ChildProcessDocumentReader({ poolSize: workers });
  const sampler = new PeakRssSampler(process.pid);
  let t0 = performance.now();
  let read;
  try {
    read = await reader.read({ document: new Uint8Array(fs.readFileSync(file)), contentType: 'application/pdf' });
  } finally {
    await reader.close();
  }
  const poolSeconds = (performance.now() - t0) / 1000;
  sampler.reset();
  sampler.stop();
  const poolOcr = read.filter((page) => page.method === 'ocr').length;
  console.log(`\nextraction of ${path.basename(file)} (${pages} pages), ${workers} at once`);
  console.log(`  child processes (the service's pool): ${read.length} pages in ${poolSeconds.toFixed(1)} s, ${poolOcr} OCR'd; the children's peak RSS ${sampler.lastPeakParts.descendantsMb.toFixed(0)} MB`);

  buildDist();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-extraction-threads-'));
  try {
    const program = path.join(dir, 'threads.mjs');
    fs.writeFileSync(program, threadsProgram(pathToFileURL(path.join(REPO_ROOT, 'dist')).href));
    t0 = performance.now();
    const { maxMemoryMb } = DEFAULT_PROCESS_LIMITS;
    const run = spawnSync(process.execPath, [...extractionNodeFlags(maxMemoryMb), program, file, String(pages), String(workers), String(DEFAULT_RANGE_PAGES), String(maxMemoryMb)],
      { encoding: 'utf8', env: { ...EXTRACTION_MALLOC_ENV, ...process.env }, maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`the threads' program failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { read: number; ocr: number; seconds: number; bareMb: number; peakMb: number; anonMb: number; fileMb: number };
    console.log(`  worker threads in one process: ${result.read} pages in ${result.seconds.toFixed(1)} s, ${result.ocr} OCR'd; the process's peak RSS ${result.peakMb} MB` +
      ` (anonymous ${result.anonMb}, file-backed ${result.fileMb}) - ${result.bareMb} MB before the threads = ${result.peakMb - result.bareMb} MB for extraction`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
