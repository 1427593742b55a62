/**
 * PDFs the ingestion-limits benchmark builds itself (so it runs anywhere, without the corpus), cached in the OS temp
 * folder: a ~40 MB, ~5,000-page text PDF shaped like a long report (dense varied text and a small picture on every
 * page), and PDFs of blank pages (nothing to read, nothing to OCR).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { seededRandom } from './metrics.js';

export const BENCH_CACHE_DIR = path.join(os.tmpdir(), 'doc-chat-bench');

const WORDS = (
  'revenue growth margin capital assets liabilities equity dividend shareholders board directors audit committee ' +
  'risk management strategy operations market customers employees sustainability emissions energy supply chain ' +
  'investment research development product services region europe americas asia outlook guidance quarter annual ' +
  'report fiscal year compared previous increase decrease percent million billion cash flow operating activities ' +
  'financing depreciation amortization goodwill impairment tax rate earnings share net income gross profit cost ' +
  'sales volume price currency exchange pension obligations lease contracts segment performance review governance'
).split(' ');

/** Sentences of report-like words from a seeded generator: every page differs, every run is the same. */
function sentence(random: () => number): string {
  const length = 8 + Math.floor(random() * 12);
  const words = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const figure = `${Math.floor(random() * 9000) + 100}.${Math.floor(random() * 10)}`;
  words.splice(Math.floor(random() * length), 0, figure);
  const text = words.join(' ');
  return text[0].toUpperCase() + text.slice(1) + '.';
}

/** A small noisy picture (incompressible, like a photo or chart in a report): its bytes make up most of the file. */
function noisePng(random: () => number, size: number): Buffer {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(size, size);
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = random() * 256;
    image.data[i + 1] = random() * 256;
    image.data[i + 2] = random() * 256;
    image.data[i + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  return canvas.toBuffer('image/png');
}

/** The ~40 MB text PDF: `pages` A4 pages of ~30 lines of text and a 44x44 picture each. */
export async function textReportPdf(pages = 5_000): Promise<string> {
  const file = path.join(BENCH_CACHE_DIR, `text-report-${pages}.pdf`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(BENCH_CACHE_DIR, { recursive: true });
  const random = seededRandom(9);
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Annual report ${2000 + (n % 25)}, section ${Math.ceil(n / 40)}`, { x: 50, y: 800, size: 14, font: bold });
    const picture = await doc.embedPng(noisePng(random, 44));
    page.drawImage(picture, { x: 480, y: 770, width: 64, height: 64 });
    let line = '';
    let y = 760;
    while (y > 60) {
      line += (line ? ' ' : '') + sentence(random);
      // ~95 characters of 10 pt Helvetica fit in 495 pt; break lines at words, like a typesetter.
      while (line.length > 95 && y > 60) {
        const cut = line.lastIndexOf(' ', 95);
        page.drawText(line.slice(0, cut), { x: 50, y, size: 10, font });
        line = line.slice(cut + 1);
        y -= 23;
      }
    }
    page.drawText(`Page ${n}`, { x: 280, y: 30, size: 9, font });
  }
  fs.writeFileSync(file, await doc.save());
  return file;
}

/** A PDF of `pages` blank pages (tiny: about 13 bytes of PDF per page after the first). */
export async function blankPagesPdf(pages = 5_000): Promise<string> {
  const file = path.join(BENCH_CACHE_DIR, `blank-${pages}.pdf`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(BENCH_CACHE_DIR, { recursive: true });
  const doc = await PDFDocument.create();
  for (let n = 0; n < pages; n++) doc.addPage([595, 842]);
  fs.writeFileSync(file, await doc.save());
  return file;
}
