/**
 * How often the web app can mark a cited excerpt on its page, and how long finding it takes: every PDF of the corpus
 * (the 30 FinanceBench filings and the text PDFs of pdfs/) read as ingestion reads it (ChildProcessDocumentReader),
 * chunked as the core chunks, and for up to BENCH_MARK_CHUNKS chunks of each (spread over the document) the excerpt a
 * source would show (excerptFor, its window set by words from the chunk's middle as a question would) looked for on
 * the chunk's page through ChildProcessPageRenderer.findText, as GET /ingest/:id/pages/:page/find does; each PDF
 * reader in turn, the same reader for reading and finding (one PDF_READER setting serves both). Prints the share of
 * excerpts found (at least one area), areas per excerpt, find time p50 / p95 / max, and the files where fewer than
 * 90 % were found, with an excerpt not found. Then the scanned PDFs of pdfs/ and the photos of images/ (read by OCR,
 * found by OCR again): found share, the time of the first find on a page against the next ones (its words kept), and
 * the page-image child's peak RSS.
 * `npx tsx bench/passage-marks.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ChildProcessDocumentReader } from '../adapters/extraction/child-process-document-reader.js';
import { ChildProcessPageRenderer } from '../adapters/extraction/child-process-page-renderer.js';
import { PDF_READERS } from '../adapters/extraction/pdf-page-source.js';
import { chunkPages } from '../core/rag/chunking.js';
import { EXCERPT_CHARS, excerptFor } from '../core/rag/context.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { percentile } from './metrics.js';
import { PeakRssSampler } from './process-tree.js';

exitUnlessCorpus('bench/passage-marks.ts');
const CHUNKS_PER_FILE = Number(process.env.BENCH_MARK_CHUNKS ?? 20);
/** Scans and broken files have no text layer to find anything in; the encrypted ones cannot be opened. */
const TEXT_PDFS = fs.readdirSync(corpusPath('pdfs')).filter((name) => name.endsWith('.pdf') && !/^(scanned|encrypted|malformed)-/.test(name));
const FILES = [
  ...fs.readdirSync(corpusPath('financebench/pdfs')).filter((name) => name.endsWith('.pdf')).sort().map((name) => corpusPath(`financebench/pdfs/${name}`)),
  ...TEXT_PDFS.sort().map((name) => corpusPath(`pdfs/${name}`)),
];

console.log(`passage marks: ${FILES.length} PDFs, up to ${CHUNKS_PER_FILE} excerpts each\n`);
for (const pdfReader of PDF_READERS) {
  const reader = new ChildProcessDocumentReader({ pdfReader });
  const renderer = new ChildProcessPageRenderer({ pdfReader });
  const times: number[] = [];
  const areaCounts: number[] = [];
  const weak: string[] = [];
  let [asked, found] = [0, 0];
  try {
    for (const file of FILES) {
      const bytes = new Uint8Array(fs.readFileSync(file));
      const chunks = chunkPages(await reader.read({ document: bytes, contentType: 'application/pdf' }));
      const step = Math.max(1, Math.floor(chunks.length / CHUNKS_PER_FILE));
      let [fileAsked, fileFound, missed] = [0, 0, ''];
      for (let i = 0; i < chunks.length && fileAsked < CHUNKS_PER_FILE; i += step) {
        const { text, page } = chunks[i];
        const words = text.split(/\s+/);
        const question = words.slice(Math.floor(words.length / 2), Math.floor(words.length / 2) + 6).join(' ');
        const excerpt = excerptFor(text, question, EXCERPT_CHARS);
        const started = performance.now();
        const areas = await renderer.findText({ document: bytes, contentKey: file, contentType: 'application/pdf', page, text: excerpt });
        times.push(performance.now() - started);
        areaCounts.push(areas?.length ?? 0);
        fileAsked++;
        if (areas && areas.length > 0) fileFound++;
        else missed ||= `page ${page}: ${JSON.stringify(excerpt.slice(0, 90))}`;
      }
      asked += fileAsked;
      found += fileFound;
      if (fileFound < 0.9 * fileAsked) weak.push(`${path.basename(file)} ${fileFound}/${fileAsked}, e.g. ${missed}`);
    }
  } finally {
    await reader.close();
    await renderer.close();
  }
  const ms = (p: number) => percentile(times, p).toFixed(1);
  console.log(`${pdfReader}: ${found}/${asked} excerpts found on their page (${((100 * found) / asked).toFixed(1)} %)`);
  console.log(`  areas per excerpt p50 ${percentile(areaCounts, 50)}, max ${Math.max(...areaCounts)}; find p50 ${ms(50)} ms, p95 ${ms(95)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  for (const line of weak) console.log(`  under 90 %: ${line}`);
  console.log();
}

// Scans and photos: the first find on a page reads it by OCR; the next ones use the words kept.
const OCR_FILES = [
  ...fs.readdirSync(corpusPath('pdfs')).filter((name) => /^scanned-.*\.pdf$/.test(name)).map((name) => corpusPath(`pdfs/${name}`)),
  ...fs.readdirSync(corpusPath('images')).filter((name) => name.endsWith('.jpg')).map((name) => corpusPath(`images/${name}`)),
].sort();
{
  const reader = new ChildProcessDocumentReader({});
  const renderer = new ChildProcessPageRenderer({});
  const pages = await Promise.all(OCR_FILES.map(async (file) => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const contentType = file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg';
    return { file, bytes, contentType, chunks: chunkPages(await reader.read({ document: bytes, contentType })) };
  }));
  await reader.close(); // read first, so that the peak below is the renderer's child's (this process is in it too)
  const sampler = new PeakRssSampler(process.pid);
  sampler.reset();
  const [first, next]: number[][] = [[], []];
  const missed: string[] = [];
  let [asked, found] = [0, 0];
  try {
    for (const { file, bytes, contentType, chunks } of pages) {
      const seen = new Set<number>();
      for (const { text, page } of chunks.slice(0, 5)) {
        const started = performance.now();
        const areas = await renderer.findText({ document: bytes, contentKey: file, contentType, page, text: excerptFor(text, '', EXCERPT_CHARS) });
        (seen.has(page) ? next : first).push(performance.now() - started);
        seen.add(page);
        asked++;
        if (areas && areas.length > 0) found++;
        else missed.push(`${path.basename(file)} page ${page}: ${JSON.stringify(excerptFor(text, '', EXCERPT_CHARS).slice(0, 90))}`);
      }
    }
    sampler.reset();
  } finally {
    sampler.stop();
    await renderer.close();
  }
  const ms = (times: number[]) => `p50 ${percentile(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`;
  console.log(`scans and photos (${OCR_FILES.length} files, OCR): ${found}/${asked} excerpts found on their page`);
  console.log(`  first find on a page ${ms(first)} (${first.length}); the next on the same page ${ms(next)} (${next.length})`);
  console.log(`  peak RSS of the page-image child process while finding: ${sampler.lastPeakParts.descendantsMb.toFixed(0)} MB`);
  for (const line of missed) console.log(`  not found: ${line}`);
}
