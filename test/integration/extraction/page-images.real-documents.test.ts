import { expect } from 'chai';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { ChildProcessDocumentReader, ChildProcessPageRenderer, PDF_READERS, type PdfReaderName } from '../../../adapters/extraction/index.js';
import type { PageArea } from '../../../core/ports/page-renderer.js';
import { chunkPages } from '../../../core/rag/chunking.js';
import { EXCERPT_CHARS, excerptFor } from '../../../core/rag/context.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { listData, readData, rotatedData } from '../../support/extraction-fixtures.js';
import { rejection } from './reader-assertions.js';

const PDF = 'application/pdf';
const REFUSED = new Set(['encrypted-libreoffice-openpassword.pdf', 'encrypted-skew-password.pdf', 'malformed-invalid.pdf']);

/** A PNG's pixels as greyscale (0-255), with its size. */
async function grey(png: Uint8Array): Promise<{ width: number; height: number; pixels: Float32Array }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const rgba = context.getImageData(0, 0, image.width, image.height).data;
  const pixels = new Float32Array(image.width * image.height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (rgba[i * 4] + rgba[i * 4 + 1] + rgba[i * 4 + 2]) / 3;
  return { width: image.width, height: image.height, pixels };
}

/** How dark each row of pixels is on average (0 white, 255 black): where a page's lines of text and pictures lie. */
function rowInk({ width, height, pixels }: { width: number; height: number; pixels: Float32Array }): number[] {
  return Array.from({ length: height }, (_, row) => {
    let ink = 0;
    for (let i = row * width; i < (row + 1) * width; i++) ink += 255 - pixels[i];
    return ink / width;
  });
}

/** Pearson correlation of two equally long series. */
function correlation(a: number[], b: number[]): number {
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) ** 2;
    bb += (b[i] - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/**
 * Page images of the real-document corpus drawn by both PDF readers (PDF_READER): the same page at the same size, the
 * same picture give or take anti-aliasing, and the same refusals.
 */
describeWithCorpus('ChildProcessPageRenderer (real PDFs, PDFium against pdf.js)', function () {
  this.timeout(120_000);
  const renderers = Object.fromEntries(PDF_READERS.map((reader) => [reader, new ChildProcessPageRenderer({ pdfReader: reader })])) as Record<PdfReaderName, ChildProcessPageRenderer>;
  after(() => Promise.all(Object.values(renderers).map((renderer) => renderer.close())));

  const drawBoth = (bytes: Uint8Array, page = 1) =>
    Promise.all(PDF_READERS.map((reader) => renderers[reader].render({ document: bytes, contentType: PDF, page, maxSide: 800 })));

  it('draws page 1 of every readable corpus PDF the same size and alike with either reader', async () => {
    const files = listData('pdfs', /\.pdf$/).filter((name) => !REFUSED.has(name));
    expect(files.length).to.be.greaterThan(8);
    for (const name of files) {
      const [pdfium, pdfjs] = await drawBoth(readData(`pdfs/${name}`));
      expect(pdfium?.contentType, name).to.equal('image/png');
      const [a, b] = [await grey(pdfium!.bytes), await grey(pdfjs!.bytes)];
      expect([a.width, a.height], name).to.deep.equal([b.width, b.height]);
      expect(Math.max(a.width, a.height), name).to.equal(800);
      // The same lines and pictures at the same heights: glyphs themselves differ where a font is not embedded and
      // each library substitutes its own (PDFium a serif for Times, pdf.js a sans).
      const r = correlation(rowInk(a), rowInk(b));
      expect(r, `${name}: correlation of the rows' ink ${r.toFixed(3)}`).to.be.greaterThan(0.8);
    }
  });

  it('draws a page saved turned a quarter (/Rotate 90) in landscape with either reader', async () => {
    const [pdfium, pdfjs] = await drawBoth(await rotatedData('pdfs/google-doc-document.pdf', 90));
    const [a, b] = [await grey(pdfium!.bytes), await grey(pdfjs!.bytes)];
    expect(a.width).to.equal(800);
    expect(a.height).to.be.lessThan(a.width);
    expect([a.width, a.height]).to.deep.equal([b.width, b.height]);
    expect(correlation(rowInk(a), rowInk(b))).to.be.greaterThan(0.8);
  });

  it('refuses the password-protected and the malformed PDF with either reader, and has no page past the last', async () => {
    for (const name of REFUSED) {
      for (const reader of PDF_READERS) {
        const error = await rejection(renderers[reader].render({ document: readData(`pdfs/${name}`), contentType: PDF, page: 1, maxSide: 800 }));
        expect(error, `${reader}: ${name}`).to.be.instanceOf(UnprocessableDocumentError);
      }
    }
    expect(await drawBoth(readData('pdfs/dmca-summary-1998.pdf'), 19)).to.deep.equal([null, null]);
  });

  it('tells pages apart by that likeness: page 1 by one reader is not like page 2 by the other', async () => {
    const bytes = readData('pdfs/dmca-summary-1998.pdf');
    const first = await renderers.pdfium.render({ document: bytes, contentType: PDF, page: 1, maxSide: 800 });
    const second = await renderers.pdfjs.render({ document: bytes, contentType: PDF, page: 2, maxSide: 800 });
    const r = correlation(rowInk(await grey(first!.bytes)), rowInk(await grey(second!.bytes)));
    expect(r).to.be.lessThan(0.8);
  });

  it('marks the excerpts of a scanned book page and of a photographed article where their words are (read again by OCR)', async () => {
    for (const [file, contentType] of [['pdfs/scanned-huckfinn-p22.pdf', PDF], ['images/congress_1871.jpg', 'image/jpeg']] as const) {
      const bytes = readData(file);
      const reader = new ChildProcessDocumentReader({});
      const chunks = chunkPages(await reader.read({ document: bytes, contentType }).finally(() => reader.close()));
      const page = await grey((await renderers.pdfium.render({ document: bytes, contentType, page: 1, maxSide: 1200 }))!.bytes);
      for (const { text } of chunks.slice(0, 3)) {
        const excerpt = excerptFor(text, '', EXCERPT_CHARS);
        const areas = (await renderers.pdfium.findText({ document: bytes, contentKey: file, contentType, page: 1, text: excerpt }))!;
        // A few lines of ~400 characters; a picture's caption ("THEY TIP-TOED ALONG.") is a chunk of one line.
        expect(areas.length, `${file}: ${excerpt.slice(0, 50)}`).to.be.at.least(excerpt.length > 100 ? 2 : 1);
        areas.forEach((area, i) => {
          // A line of print no taller than a line of the largest type (the book's "Chapter II" is an eighth of the page),
          // below the line before it, with print in it. (Where exactly: the generated scan and photo in
          // test/contracts/page-renderer.child-process.test.ts.)
          expect(area.height).to.be.below(0.15);
          if (i > 0) expect(area.y + area.height / 2, `${file}: line ${i + 1}`).to.be.above(areas[i - 1].y + areas[i - 1].height / 2);
          // Print varies by 16-48 grey levels here, the book's blank foot by 2-3 (checked: it tells them apart).
          expect(inkSpread(page, area), `${file}: ${JSON.stringify(area)}`).to.be.above(10);
          if (contentType === PDF) expect(inkSpread(page, { ...area, y: 0.985, height: 0.01 })).to.be.below(10);
        });
      }
    }
  });
});

/** How much darkness varies in a part of a page (standard deviation, 0-255): print on paper varies, blank paper not. */
function inkSpread({ width, height, pixels }: { width: number; height: number; pixels: Float32Array }, area: PageArea): number {
  let [sum, squares, count] = [0, 0, 0];
  for (let y = Math.floor(area.y * height); y < Math.ceil((area.y + area.height) * height); y++) {
    for (let x = Math.floor(area.x * width); x < Math.ceil((area.x + area.width) * width); x++, count++) {
      sum += pixels[y * width + x];
      squares += pixels[y * width + x] ** 2;
    }
  }
  return count === 0 ? 0 : Math.sqrt(squares / count - (sum / count) ** 2);
}
