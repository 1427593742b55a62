/**
 * Which OCR lines to keep (adapters/extraction/ocr-engine.ts, MIN_LINE_CONFIDENCE): every photo of ../shared/data/images
 * and the first page of each scanned PDF, read as the extraction process reads them, and scored against their reference
 * texts where they have one (tesseract.js's ground truth, the Linn brochure's text, Amazon Textract's lines of the
 * receipts). For each line-confidence threshold: the share of reference words read (recall, a bag of words) and the
 * words read that are in no reference (noise). Images without a reference print how many words each threshold keeps,
 * and the lines the chosen threshold drops are listed, to read.
 *   npx tsx bench/ocr-lines.ts
 */
import fs from 'node:fs';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { readJpegHeader } from '../adapters/extraction/jpeg-header.js';
import { MIN_LINE_CONFIDENCE, OcrEngine, type Layout } from '../adapters/extraction/ocr-engine.js';
import { openPdfPageSource } from '../adapters/extraction/open-pdf-page-source.js';
import { words, wordOverlap } from '../test/support/extraction-fixtures.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';

exitUnlessCorpus('bench/ocr-lines.ts');
const THRESHOLDS = [0, 20, MIN_LINE_CONFIDENCE, 40, 50, 60];
const { decodeJpeg, toOcrImage } = await import('../adapters/extraction/raster.js');
const settings = DEFAULT_EXTRACTION_SETTINGS;

/** Each input's OCR image and layout as the extractor uses them, and its reference text if it has one. */
async function* inputs(): AsyncGenerator<{ name: string; pgm: Uint8Array; layout: Layout; reference?: string }> {
  const images = corpusPath('images');
  for (const file of fs.readdirSync(images).filter((f) => f.endsWith('.jpg')).sort()) {
    const bytes = new Uint8Array(fs.readFileSync(`${images}/${file}`));
    const base = `${images}/${file.replace(/\.jpg$/, '')}`;
    const reference = ['.gt.txt', '.reference.txt', '.textract_lines.txt'].map((ext) => base + ext).find((p) => fs.existsSync(p));
    const { pgm } = toOcrImage(decodeJpeg(bytes), readJpegHeader(bytes).orientation, settings.maxImagePixels);
    yield { name: file, pgm, layout: 'block', reference: reference && fs.readFileSync(reference, 'utf8') };
  }
  const pdfs = corpusPath('pdfs');
  for (const file of fs.readdirSync(pdfs).filter((f) => f.startsWith('scanned-') && f.endsWith('.pdf')).sort()) {
    const pdf = await openPdfPageSource('pdfium', new Uint8Array(fs.readFileSync(`${pdfs}/${file}`)), { maxPdfImagePixels: settings.maxPdfImagePixels });
    const { pgm } = await pdf.renderForOcr(1, settings.renderDpi, settings.maxImagePixels);
    await pdf.close();
    const reference = `${pdfs}/${file.replace(/\.pdf$/, '.reference.txt')}`;
    yield { name: `${file}, page 1`, pgm, layout: 'auto', reference: fs.existsSync(reference) ? fs.readFileSync(reference, 'utf8') : undefined };
  }
}

const engine = new OcrEngine();
const totals = THRESHOLDS.map(() => ({ found: 0, reference: 0, noise: 0 }));
try {
  for await (const { name, pgm, layout, reference } of inputs()) {
    const lines = await engine.readLines(pgm, layout);
    const cells = THRESHOLDS.map((threshold, i) => {
      const kept = lines.filter((line) => line.confidence >= threshold).map((line) => line.text).join(' ');
      if (reference === undefined) return `${words(kept).length} words`;
      const { found, wanted, read } = wordOverlap(reference, kept);
      Object.assign(totals[i], { found: totals[i].found + found, reference: totals[i].reference + wanted, noise: totals[i].noise + read - found });
      return `${(found / wanted).toFixed(3)} / ${read - found}`;
    });
    console.log(`${name}${reference === undefined ? ' (no reference)' : ''}: ${cells.map((cell, i) => `≥${THRESHOLDS[i]} ${cell}`).join(' · ')}`);
    for (const line of lines.filter((l) => l.confidence < MIN_LINE_CONFIDENCE)) console.log(`    dropped (${line.confidence.toFixed(0)}): ${line.text.trim()}`);
  }
} finally {
  await engine.terminate();
}
console.log('\nWith a reference, all together (recall of reference words / words read in no reference):');
for (const [i, threshold] of THRESHOLDS.entries()) {
  const { found, reference, noise } = totals[i];
  console.log(`  lines at confidence ≥ ${threshold}${threshold === MIN_LINE_CONFIDENCE ? ' (MIN_LINE_CONFIDENCE)' : ''}: ${(found / reference).toFixed(3)} / ${noise}`);
}
