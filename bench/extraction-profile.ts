/**
 * The extraction child's work in one plain process, for profiling (issue 18): reads a PDF with DocumentExtractor under
 * the same heap cap, cache-cleanup and forced-GC policy as an extraction process, and prints pages/s, RSS and heap per
 * window of pages. Run it as the child runs (bundled to plain JS: under tsx, its source maps alone hold ~150 MB of heap),
 * under the profiler if wanted:
 *   esbuild bench/extraction-profile.ts --bundle --platform=node --format=esm --packages=external --outfile=DIR/p.mjs
 *   (DIR/node_modules a link to ours), then
 *   node --max-old-space-size=1024 --expose-gc [--cpu-prof --heap-prof] DIR/p.mjs FILE [MAX_PAGES] [WINDOW]
 * PDF_READER=pdfjs|pdfium picks the reader as in the service (bench/pdf-reader-speed.ts runs both this way).
 */
import fs from 'node:fs';
import { DEFAULT_EXTRACTION_SETTINGS, DEFAULT_PROCESS_LIMITS } from '../adapters/extraction/child-process-document-reader.js';
import { cleanupPolicy } from '../adapters/extraction/cleanup-policy.js';
import { DocumentExtractor } from '../adapters/extraction/document-extractor.js';
import { PDF_READERS, type PdfReaderName } from '../adapters/extraction/pdf-page-source.js';
import { pdfiumMemoryBytes } from '../adapters/extraction/pdfium-page-source.js';

const [file, maxPagesArg, windowArg] = process.argv.slice(2);
if (!file) throw new Error('usage: extraction-profile.ts FILE [MAX_PAGES] [WINDOW]');
const maxPages = Number(maxPagesArg ?? Infinity);
const window = Number(windowArg ?? 500);
// As ChildProcessDocumentReader sets them for its children.
const thresholds = { cleanupAboveHeapMb: DEFAULT_PROCESS_LIMITS.maxMemoryMb / 2, collectAboveRssMb: DEFAULT_PROCESS_LIMITS.maxMemoryMb / 4 };
const counters = { cleanups: 0, collections: 0 };
const policy = cleanupPolicy(thresholds, counters);
const rssMb = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);

const pdfReader = (process.env.PDF_READER ?? DEFAULT_EXTRACTION_SETTINGS.pdfReader) as PdfReaderName;
if (!PDF_READERS.includes(pdfReader)) throw new Error(`PDF_READER must be one of ${PDF_READERS.join(', ')}`);
const extractor = new DocumentExtractor({ ...DEFAULT_EXTRACTION_SETTINGS, pdfReader });
const data = fs.readFileSync(file);
const t0 = performance.now();
let windowStart = t0;
let windowCpu = process.cpuUsage();
let pages = 0;
let ocrPages = 0;
const STOP = new Error('page limit reached');
try {
  await extractor.extract(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 'pdf', {
    onPage: (page) => {
      pages++;
      if (page.method !== 'text') ocrPages++;
      if (pages % window === 0) {
        const now = performance.now();
        const memory = process.memoryUsage();
        const cpu = process.cpuUsage(windowCpu); // all threads of the process (pdf.js and the OCR engine's)
        windowCpu = process.cpuUsage();
        const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
        console.log(`pages ${pages - window + 1}-${pages}: ${(window / ((now - windowStart) / 1000)).toFixed(1)} pages/s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, ` +
          `rss ${rssMb()} MB (V8 heap used ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)}, array buffers ${mb(memory.arrayBuffers)}), ` +
          `OCR'd pages ${ocrPages}, cache cleanups ${counters.cleanups}, forced GCs ${counters.collections}`);
        windowStart = now;
      }
      if (pages >= maxPages) throw STOP;
    },
    onProgress: () => {},
    // NO_CLEANUP=1 shows how the process grows when pdf.js's caches are only dropped every 250 pages.
    shouldCleanUp: () => !process.env.NO_CLEANUP && policy.shouldCleanUp!(),
    onCleanedUp: policy.onCleanedUp,
  });
} catch (error) {
  if (error !== STOP && (error as Error).cause !== STOP) throw error;
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage();
const wasmMb = Math.round((await pdfiumMemoryBytes()) / 1024 / 1024);
console.log(`${pdfReader}: ${pages} pages (${ocrPages} OCR'd) in ${seconds.toFixed(1)} s: ${(pages / seconds).toFixed(1)} pages/s, ` +
  `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, RSS at end ${rssMb()} MB` +
  (pdfReader === 'pdfium' ? `, PDFium WebAssembly memory ${wasmMb} MB` : ''));
await extractor.close();
