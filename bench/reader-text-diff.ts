/**
 * Issue 18: does PDFium (WASM, @hyzyla/pdfium) read the corpus as pdf.js (pdf-parse) does? Both are read through the
 * extraction process's page sources (adapters/extraction/pdf-page-source.ts, PDF_READER=pdfjs|pdfium). For every PDF of
 * ../shared/data/pdfs and the FinanceBench filings (first DIFF_MAX_PAGES pages each, default 40), both readers' page
 * texts, normalized as the extractor normalizes them, are written to a temporary folder with a `diff -u` per document,
 * and a summary is printed: words each reader found, the share of words both found (bag of words), and the share of
 * words in the same order (longest common subsequence of the word sequences), which is where multi-column pages and
 * tables read as rows would differ. Time per reader is printed too (text layer only, same process, one after the other).
 *   npx tsx bench/reader-text-diff.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { openPdfPageSource } from '../adapters/extraction/open-pdf-page-source.js';
import type { PdfReaderName } from '../adapters/extraction/pdf-page-source.js';
import { markParagraphBreaks, normalizeExtractedText } from '../adapters/extraction/normalize-text.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { filingFiles } from './long-real-pdf.js';
import { commonSubsequenceLength } from '../test/support/word-order.js';

const MAX_PAGES = Number(process.env.DIFF_MAX_PAGES ?? 40);
/** DIFF_ONLY=<regular expression> compares only the documents whose file name matches. */
const ONLY = new RegExp(process.env.DIFF_ONLY ?? '');
const normalize = (text: string) => markParagraphBreaks(normalizeExtractedText(text));
const words = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));

/** The first `pages` page texts of a PDF as the extraction process reads them (text layer only, no OCR). */
async function readerPages(reader: PdfReaderName, data: Uint8Array, pages: number): Promise<string[]> {
  const pdf = await openPdfPageSource(reader, data.slice(), { maxPdfImagePixels: DEFAULT_EXTRACTION_SETTINGS.maxPdfImagePixels });
  try {
    const texts: string[] = [];
    for (let num = 1; num <= Math.min(pages, pdf.pageCount); num++) texts.push(normalize(await pdf.text(num)));
    return texts;
  } finally {
    await pdf.close();
  }
}

function bagOverlap(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const word of a) counts.set(word, (counts.get(word) ?? 0) + 1);
  let common = 0;
  for (const word of b) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      common++;
      counts.set(word, left - 1);
    }
  }
  return common;
}

async function main(): Promise<void> {
  exitUnlessCorpus('The reader text diff');
  await readerPages('pdfium', new Uint8Array(fs.readFileSync(corpusPath('pdfs/google-doc-document.pdf'))), 1); // loads the wasm outside the timings
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-reader-diff-'));
  const dir = corpusPath('pdfs');
  const files = [...fs.readdirSync(dir).filter((name) => name.endsWith('.pdf')).map((name) => path.join(dir, name)), ...filingFiles()].filter((file) => ONLY.test(path.basename(file)));
  const totals = { pdfjsWords: 0, pdfiumWords: 0, common: 0, ordered: 0, pdfjsMs: 0, pdfiumMs: 0, pages: 0 };
  console.log(`${'document'.padEnd(44)} ${'pages'.padStart(5)} ${'words pdf.js'.padStart(12)} ${'PDFium'.padStart(8)} ${'common'.padStart(7)} ${'in order'.padStart(8)}  pdf.js / PDFium ms`);
  for (const file of files) {
    const name = path.basename(file, '.pdf');
    const data = new Uint8Array(fs.readFileSync(file));
    let a: string[];
    let b: string[];
    const t0 = performance.now();
    try {
      a = await readerPages('pdfjs', data, MAX_PAGES);
    } catch (error) {
      a = [`(pdf.js: ${(error as Error).name}: ${(error as Error).message})`];
    }
    const t1 = performance.now();
    try {
      b = await readerPages('pdfium', data, MAX_PAGES);
    } catch (error) {
      b = [`(PDFium: ${(error as Error).name}: ${(error as Error).message})`];
    }
    const t2 = performance.now();
    const pageText = (texts: string[]) => texts.map((text, i) => `=== page ${i + 1}\n${text}\n`).join('');
    fs.writeFileSync(path.join(out, `${name}.pdfjs.txt`), pageText(a));
    fs.writeFileSync(path.join(out, `${name}.pdfium.txt`), pageText(b));
    const diff = spawnSync('diff', ['-u', `${name}.pdfjs.txt`, `${name}.pdfium.txt`], { cwd: out, encoding: 'utf8', maxBuffer: 1 << 28 });
    fs.writeFileSync(path.join(out, `${name}.diff`), diff.stdout);
    let wa = 0, wb = 0, common = 0, ordered = 0;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = words(a[i] ?? '');
      const y = words(b[i] ?? '');
      wa += x.length;
      wb += y.length;
      common += bagOverlap(x, y);
      ordered += commonSubsequenceLength(x, y);
    }
    const share = (n: number) => (Math.max(wa, wb) === 0 ? 1 : n / Math.max(wa, wb));
    console.log(`${name.slice(0, 44).padEnd(44)} ${String(Math.max(a.length, b.length)).padStart(5)} ${String(wa).padStart(12)} ${String(wb).padStart(8)} ${share(common).toFixed(3).padStart(7)} ${share(ordered).toFixed(3).padStart(8)}  ${(t1 - t0).toFixed(0)} / ${(t2 - t1).toFixed(0)}`);
    totals.pdfjsWords += wa;
    totals.pdfiumWords += wb;
    totals.common += common;
    totals.ordered += ordered;
    totals.pdfjsMs += t1 - t0;
    totals.pdfiumMs += t2 - t1;
    totals.pages += Math.max(a.length, b.length);
  }
  const all = Math.max(totals.pdfjsWords, totals.pdfiumWords);
  console.log(`\nall ${files.length} documents, ${totals.pages} pages: words pdf.js ${totals.pdfjsWords}, PDFium ${totals.pdfiumWords}; common ${(totals.common / all).toFixed(3)}, in order ${(totals.ordered / all).toFixed(3)}; time pdf.js ${(totals.pdfjsMs / 1000).toFixed(1)} s, PDFium ${(totals.pdfiumMs / 1000).toFixed(1)} s`);
  console.log(`page texts and diffs: ${out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
