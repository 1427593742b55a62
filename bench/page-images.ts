/**
 * Page-image render time: every page of a ~300-page filing rendered as the page route does on a cache miss
 * (ChildProcessPageRenderer: the file handed to the renderer's child process, the page drawn by each PDF reader,
 * PDFium and pdf.js, PNG-encoded, longest side 1600 px; then PDFium at the smaller sizes the web app asks for on
 * narrower screens), one after another as a reader paging through would ask; then
 * every 100th page of the long real PDF (long-real-pdf.ts; skipped with the reason where the corpus or qpdf is
 * absent). Each twice: a copy of the file and a parse of it for every page (a request without contentKey), then the
 * copy kept and the PDF open from page to page (as the page route asks). Prints p50, p95 and max, and the peak RSS of
 * the renderer's child process. Last, through the service, ten pages of the long PDF asked for at once: how long until
 * all are answered, and the API process's peak RSS; then twenty others one after another (a person reading).
 *
 * FinanceBench holds no single filing of ~300 pages (the longest is 213): two real 10-Ks are merged with qpdf into one
 * 296-page PDF, which is what a long filing looks like to the renderer. `npx tsx bench/page-images.ts`;
 * PAGE_BENCH_PAGES=N renders only the first N pages.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessPageRenderer } from '../adapters/extraction/child-process-page-renderer.js';
import { PDF_READERS, type PdfReaderName } from '../adapters/extraction/pdf-page-source.js';
import { longRealPdf, longRealPdfUnavailable, pageCount as countPages } from './long-real-pdf.js';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../test/support/api-client.js';
import { PeakRssSampler, treeRssParts } from './process-tree.js';
import { SECRET, sleep, startServer } from './service-bench.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { percentile } from './metrics.js';

const PARTS = ['financebench/pdfs/CVSHEALTH_2022_10K.pdf', 'financebench/pdfs/AMAZON_2019_10K.pdf'];
const MAX_SIDE = 1600;
const PAGES_AT_ONCE = 10;

exitUnlessCorpus('bench/page-images.ts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-images-bench-'));
const filing = path.join(dir, 'filing.pdf');
const merged = spawnSync('qpdf', ['--empty', '--pages', ...PARTS.map(corpusPath), '--', filing], { encoding: 'utf8' });
if (merged.status !== 0) {
  console.error(`qpdf could not merge the filings (${merged.error?.message ?? merged.stderr.trim()}); install qpdf (Debian: apt-get install qpdf)`);
  process.exit(2);
}
const bytes = new Uint8Array(fs.readFileSync(filing));
const pageCount = Number(/^Pages:\s+(\d+)/m.exec(spawnSync('pdfinfo', [filing], { encoding: 'utf8' }).stdout ?? '')?.[1] ?? 296);
const pages = Math.min(pageCount, Number(process.env.PAGE_BENCH_PAGES ?? pageCount));

const ms = (v: number) => `${Math.round(v)} ms`;

/**
 * Renders `pageNumbers` of `document` one after another with `reader`; the renderer's child's peak RSS is sampled.
 * `contentKey` names the document as the page route does (its hash), so the renderer keeps its copy (and the child the
 * PDF open) from one page to the next; without it every page costs a copy of the file and a fresh parse.
 */
async function renderPages(document: Uint8Array, pageNumbers: number[], reader: PdfReaderName, contentKey?: string, maxSide = MAX_SIDE) {
  const renderer = new ChildProcessPageRenderer({ pdfReader: reader });
  let childPeakMb = 0;
  const sampler = setInterval(() => (childPeakMb = Math.max(childPeakMb, treeRssParts(process.pid).descendants / 1048576)), 20);
  try {
    const started = performance.now();
    if (!(await renderer.render({ document, contentKey, contentType: 'application/pdf', page: 1, maxSide }))) throw new Error('page 1 not found');
    const coldMs = performance.now() - started;
    const times: number[] = [];
    const sizes: number[] = [];
    for (const page of pageNumbers) {
      const t0 = performance.now();
      const image = await renderer.render({ document, contentKey, contentType: 'application/pdf', page, maxSide });
      times.push(performance.now() - t0);
      if (!image) throw new Error(`page ${page} not found`);
      sizes.push(image.bytes.length);
    }
    return { coldMs, times, sizes, childPeakMb };
  } finally {
    clearInterval(sampler);
    await renderer.close();
  }
}

function report(label: string, { coldMs, times, sizes, childPeakMb }: Awaited<ReturnType<typeof renderPages>>): void {
  console.log(`  ${label}`);
  console.log(`    first page with the child starting          ${ms(coldMs)}`);
  console.log(`    render time (child running, no image cache) p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))}`);
  console.log(`    image size                                  p50 ${Math.round(percentile(sizes, 50) / 1024)} KB, max ${Math.round(Math.max(...sizes) / 1024)} KB`);
  console.log(`    peak RSS of the renderer's child            ${childPeakMb.toFixed(0)} MB`);
}

/**
 * Through the service (compiled, its own process): the long PDF ingested, then PAGES_AT_ONCE of its pages asked for at
 * once, as a source list opening several pages would. Each request waits its turn at the renderer; the API process's
 * peak RSS shows what the waiting requests hold.
 */
async function pagesAtOnce(file: string, document: Uint8Array): Promise<void> {
  const server = await startServer();
  const sampler = new PeakRssSampler(server.pid);
  try {
    const api = new ApiClient(server.baseUrl, await signLocalToken(SECRET, 'bench-page-images'));
    const session = await api.createSession('page images');
    const { jobId } = await api.uploadAndIngest(session, path.basename(file), document, 'application/pdf');
    const job = await api.waitForJob(jobId, 600_000);
    if (job.status !== 'completed') throw new Error(`the long PDF was not ingested: ${job.error}`);
    // Past the ingestion's aftermath: extraction processes gone idle, the service's last-resort collection done.
    await sleep(45_000);
    const beforeMb = treeRssParts(server.pid).root / 1048576;
    sampler.reset();
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: PAGES_AT_ONCE }, (_, i) => api.getBinary(`/api/v1/ingest/${jobId}/pages/${(i + 1) * 400}`)));
    const seconds = (performance.now() - t0) / 1000;
    sampler.reset();
    const failed = answers.filter((answer) => answer.status !== 200).length;
    console.log(`  ${PAGES_AT_ONCE} pages of it asked for at once through the service (PDF_READER=${process.env.PDF_READER ?? 'default'}): all answered in ${seconds.toFixed(1)} s${failed ? `, ${failed} failed` : ''}; API process's RSS ${beforeMb.toFixed(0)} MB before, peak ${sampler.lastPeakParts.rootMb.toFixed(0)} MB; the tree's peak ${(sampler.lastPeakParts.rootMb + sampler.lastPeakParts.descendantsMb).toFixed(0)} MB`);
    // Then as a person reads: other pages, one after another (none in the service's image cache).
    const times: number[] = [];
    for (let i = 0; i < PAGES_AT_ONCE * 2; i++) {
      const t1 = performance.now();
      const answer = await api.getBinary(`/api/v1/ingest/${jobId}/pages/${(i + 1) * 200 + 7}`);
      if (answer.status !== 200) throw new Error(`page ${(i + 1) * 200 + 7}: HTTP ${answer.status}`);
      times.push(performance.now() - t1);
    }
    console.log(`  ${times.length} other pages of it, one after another through the service: p50 ${ms(percentile(times, 50))}, max ${ms(Math.max(...times))} a page`);
  } finally {
    sampler.stop();
    await server.stop();
  }
}

try {
  console.log(`Page images: ${pages} pages of a ${pageCount}-page filing (${(bytes.length / 1e6).toFixed(1)} MB, ${PARTS.map((p) => path.basename(p)).join(' + ')}), PNG, longest side ${MAX_SIDE} px`);
  const all = Array.from({ length: pages }, (_, i) => i + 1);
  for (const reader of PDF_READERS) {
    report(`PDF_READER=${reader}, a copy and a parse for each page`, await renderPages(bytes, all, reader));
    report(`PDF_READER=${reader}, the copy kept and the PDF open (contentKey)`, await renderPages(bytes, all, reader, 'filing'));
  }
  // The smaller sizes the web app asks for where the page is drawn narrower (web/src/page-image-size.ts).
  for (const side of [1200, 800]) report(`PDF_READER=pdfium, the PDF open, longest side ${side} px`, await renderPages(bytes, all, 'pdfium', 'filing', side));
  // A page of a long report is what a source in an answer about it opens: every 100th page of the merged filings.
  const unavailable = longRealPdfUnavailable();
  if (unavailable) console.log(`  long real PDF: skipped (${unavailable})`);
  else {
    const long = longRealPdf().file;
    const longPages = countPages(long);
    const sample = Array.from({ length: Math.floor(longPages / 100) }, (_, i) => (i + 1) * 100);
    const longBytes = new Uint8Array(fs.readFileSync(long));
    console.log(`Page images of the long real PDF (${longPages} pages, ${(longBytes.length / 1e6).toFixed(1)} MB): every 100th page, ${sample.length} pages`);
    for (const reader of PDF_READERS) {
      report(`PDF_READER=${reader}, a copy and a parse for each page`, await renderPages(longBytes, sample, reader));
      report(`PDF_READER=${reader}, the copy kept and the PDF open (contentKey)`, await renderPages(longBytes, sample, reader, 'long'));
    }
    await pagesAtOnce(long, longBytes);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
