/**
 * Page-image render time: every page of a ~300-page filing rendered as the page route does on a cache miss
 * (ChildProcessPageRenderer: the file handed to the renderer's child process, the page drawn by pdf.js, PNG-encoded,
 * longest side 1600 px), one after another as a reader paging through would ask. Prints p50, p95 and max.
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
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { percentile } from './metrics.js';

const PARTS = ['financebench/pdfs/CVSHEALTH_2022_10K.pdf', 'financebench/pdfs/AMAZON_2019_10K.pdf'];
const MAX_SIDE = 1600;

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

const renderer = new ChildProcessPageRenderer();
try {
  const started = performance.now();
  const first = await renderer.render({ bytes, contentType: 'application/pdf', page: 1, maxSide: MAX_SIDE });
  const coldMs = performance.now() - started;
  if (!first) throw new Error('page 1 not found');
  const times: number[] = [];
  const sizes: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const t0 = performance.now();
    const image = await renderer.render({ bytes, contentType: 'application/pdf', page, maxSide: MAX_SIDE });
    times.push(performance.now() - t0);
    if (!image) throw new Error(`page ${page} not found`);
    sizes.push(image.bytes.length);
  }
  const ms = (v: number) => `${Math.round(v)} ms`;
  console.log(`Page images: ${pages} pages of a ${pageCount}-page filing (${(bytes.length / 1e6).toFixed(1)} MB, ${PARTS.map((p) => path.basename(p)).join(' + ')}), PNG, longest side ${MAX_SIDE} px`);
  console.log(`  first page with the child starting   ${ms(coldMs)}`);
  console.log(`  render time (child running, no cache) p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))}`);
  console.log(`  image size                             p50 ${Math.round(percentile(sizes, 50) / 1024)} KB, max ${Math.round(Math.max(...sizes) / 1024)} KB`);
} finally {
  await renderer.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
