/**
 * What each extraction process holds while the pool reads the long real PDF of issue 18 (or BENCH_FILE): a probe
 * loaded into every child (NODE_OPTIONS --import) records, every 250 ms, process.memoryUsage(), its V8 heap spaces,
 * its resident memory by kind and its thread count (the OCR engine runs in a thread of its own). Prints, per child,
 * the sample of highest RSS split into file-backed (the node binary, shared), V8 heap (new space apart), external
 * (PDFium's WebAssembly memory + array buffers) and the rest ("native": the OCR thread's wasm and heap, malloc),
 * the median RSS, and which pages were OCR'd; then the peak of the whole tree (this process + children) and the
 * children's CPU. EXTRACTION_WORKERS (default 2) sets the pool size; the reader runs with its defaults otherwise.
 * Runs the reader in this process (not the service): the children are what it measures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessDocumentReader } from '../adapters/extraction/child-process-document-reader.js';
import type { ExtractedPage } from '../core/domain/model.js';
import { longRealPdf, longRealPdfUnavailable } from './long-real-pdf.js';
import type { MemorySample } from './memory-trace.js';
import { descendantsCpuSeconds, PeakRssSampler } from './process-tree.js';

/** The service's sample (memory-trace.ts) with resident memory by kind and the young generation instead of every space. */
interface ChildSample extends Omit<MemorySample, 'spaces'> {
  anon: number;
  file: number;
  newSpace: number;
}

/** The probe, plain JavaScript; it does nothing in a process without an IPC channel (this bench's own tsx, esbuild). */
function probeSource(dir: string): string {
  return `import fs from 'node:fs';
import v8 from 'node:v8';
if (process.send) {
  const out = ${JSON.stringify(dir)} + '/' + process.pid + '.jsonl';
  const t0 = Date.now();
  const mb = (n) => Math.round(n / 1048576);
  const kb = (status, name) => Number(new RegExp('^' + name + ':\\\\s+(\\\\d+)', 'm').exec(status)?.[1] ?? 0);
  setInterval(() => {
    const m = process.memoryUsage();
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    fs.appendFileSync(out, JSON.stringify({ t: Date.now() - t0, rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed),
      external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), anon: Math.round(kb(status, 'RssAnon') / 1024),
      file: Math.round(kb(status, 'RssFile') / 1024), threads: kb(status, 'Threads'), newSpace: mb(newSpace) }) + '\\n');
  }, 250).unref();
}
`;
}

async function main(): Promise<void> {
  let file = process.env.BENCH_FILE;
  if (!file) {
    const unavailable = longRealPdfUnavailable();
    if (unavailable) return void console.log(`extraction process memory: skipped (${unavailable})`);
    file = longRealPdf().file;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-extraction-memory-'));
  const probe = path.join(dir, 'probe.mjs');
  fs.writeFileSync(probe, probeSource(dir));
  // Children inherit the environment: each loads the probe (the Node flags of their command line still apply).
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${probe}`.trim();
  const poolSize = Number(process.env.EXTRACTION_WORKERS ?? 2);
  const reader = new ChildProcessDocumentReader({ poolSize });
  const sampler = new PeakRssSampler(process.pid);
  const t0 = performance.now();
  let pages: ExtractedPage[];
  let cpu = 0;
  try {
    pages = await reader.read({ document: new Uint8Array(fs.readFileSync(file)), contentType: 'application/pdf' });
  } finally {
    cpu = descendantsCpuSeconds(process.pid); // before close(): the children are still alive
    await reader.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  const peak = sampler.reset();
  sampler.stop();
  const ocr = pages.filter((page) => page.method === 'ocr').map((page) => page.page);
  console.log(`\nextraction processes reading ${path.basename(file)}: ${pages.length} pages in ${seconds.toFixed(1)} s, ${poolSize} processes, ${cpu.toFixed(1)} CPU-s`);
  console.log(`  OCR'd pages: ${ocr.length} (${ocr.join(', ')})`);
  console.log(`  peak RSS of this process + children ${peak.toFixed(0)} MB = this process ${sampler.lastPeakParts.rootMb.toFixed(0)} + children ${sampler.lastPeakParts.descendantsMb.toFixed(0)} (PSS ${sampler.lastPeakPssMb.toFixed(0)})`);
  for (const name of fs.readdirSync(dir).filter((entry) => entry.endsWith('.jsonl'))) {
    const samples = fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as ChildSample);
    if (samples.length === 0) continue;
    const top = samples.reduce((a, b) => (b.rss > a.rss ? b : a));
    const median = [...samples].sort((a, b) => a.rss - b.rss)[samples.length >> 1].rss;
    const native = top.rss - top.file - top.heapTotal - top.external;
    console.log(`  child ${path.basename(name, '.jsonl')}: peak ${top.rss} MB = file-backed ${top.file} + V8 heap ${top.heapTotal} (new space ${top.newSpace}, used ${top.heapUsed})` +
      ` + external ${top.external} (PDFium's wasm memory and ${top.arrayBuffers} of array buffers) + native ${native} (${top.threads} threads); median ${median} MB`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
