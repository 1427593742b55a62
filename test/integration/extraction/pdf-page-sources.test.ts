import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, degrees } from 'pdf-lib';
import { normalizeExtractedText } from '../../../adapters/extraction/normalize-text.js';
import { openPdfPageSource } from '../../../adapters/extraction/open-pdf-page-source.js';
import { PDF_READERS, type PdfReaderName } from '../../../adapters/extraction/pdf-page-source.js';
import { openPdfiumPageSource, pdfiumMemoryBytes } from '../../../adapters/extraction/pdfium-page-source.js';
import { commonSubsequenceLength } from '../../support/word-order.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { readData } from '../../support/extraction-fixtures.js';
import { corpusPath, REPO_ROOT } from '../../support/paths.js';

const OPTIONS = { maxPdfImagePixels: 50_000_000 };

async function pageText(reader: PdfReaderName, file: string, page: number): Promise<string> {
  const pdf = await openPdfPageSource(reader, readData(file), OPTIONS);
  try {
    return normalizeExtractedText(await pdf.text(page));
  } finally {
    await pdf.close();
  }
}

/** PDFium's own text of a page (FPDFText_GetText through its wrapper): what the layout in pdfium-text.ts replaces. */
async function pdfiumOwnText(file: string, page: number): Promise<string> {
  const library = await PDFiumLibrary.init();
  try {
    const doc = await library.loadDocument(readData(file));
    try {
      return doc.getPage(page - 1).getText();
    } finally {
      doc.destroy();
    }
  } finally {
    library.destroy();
  }
}

const words = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));

/** Share of pdf.js's words PDFium has in the same order (longest common subsequence). */
function inOrder(a: string[], b: string[]): number {
  return commonSubsequenceLength(a, b) / Math.max(a.length, b.length, 1);
}

describeWithCorpus('PDFium page text reads as pdf.js does (real corpus pages)', function () {
  this.timeout(60_000);

  it('writes a hyphen PDFium marks with U+FFFE (here a broken U+0002 glyph) as "-", so the word is joined as with pdf.js', async () => {
    expect(await pdfiumOwnText('pdfs/latex-multicolumn.pdf', 1)).to.include('adip\ufffeiscing');
    const text = await pageText('pdfium', 'pdfs/latex-multicolumn.pdf', 1);
    expect(text).to.include('consectetuer adipiscing elit.');
    expect(text).not.to.match(/[\ufffe\u0002]/);
    expect(await pageText('pdfjs', 'pdfs/latex-multicolumn.pdf', 1)).to.include('consectetuer adipiscing elit.');
  });

  it('keeps superscripts (exponents, footnote marks) in their line', async () => {
    expect(await pdfiumOwnText('pdfs/GeoTopo-komprimiert.pdf', 2)).to.include('Die Kugeloberfläche S\r\n2\r\nlässt');
    for (const reader of PDF_READERS) {
      const geo = (await pageText(reader, 'pdfs/GeoTopo-komprimiert.pdf', 2)).split('\n');
      expect(geo, reader).to.include('Die Kugeloberfläche S2 lässt sich durch strecken, stauchen und umformen zur Würfeloberfläche');
      const footnotes = (await pageText(reader, 'pdfs/federal-register-2020-17221.pdf', 2)).split('\n');
      expect(footnotes, reader).to.include('1 Preliminary KNKT.18.10.35.04 Aircraft');
    }
  });

  it("leaves out text outside the crop box (the printer's marks of the IRS form)", async () => {
    const own = await pdfiumOwnText('pdfs/irs-i1040nr-2007.pdf', 2);
    for (const mark of ['6-DEC-2007', 'proofs']) expect(own).to.include(mark);
    for (const reader of PDF_READERS) {
      const text = await pageText(reader, 'pdfs/irs-i1040nr-2007.pdf', 2);
      expect(text, reader).to.include('Instructions for Form 1040NR');
      for (const mark of ['6-DEC-2007', 'proofs']) expect(text, reader).not.to.include(mark);
    }
  });

  it('reads text set sideways in the margin as one line', async () => {
    for (const reader of PDF_READERS) {
      expect((await pageText(reader, 'pdfs/federal-register-2020-17221.pdf', 1)).split('\n'), reader).to.include('jbell on DSKJLSW7X2PROD with PROPOSALS');
    }
  });

  it('reads a page turned by /Rotate 90, 180 or 270 exactly as the upright page (pdf.js splits rows when turned)', async () => {
    const upright = await pageText('pdfium', 'pdfs/google-doc-document.pdf', 1);
    expect(upright).to.include('Population 273.879.7501 83,190,5562');
    for (const angle of [90, 180, 270]) {
      const doc = await PDFDocument.load(readData('pdfs/google-doc-document.pdf'));
      doc.getPage(0).setRotation(degrees(angle));
      const pdf = await openPdfPageSource('pdfium', await doc.save(), OPTIONS);
      try {
        expect(normalizeExtractedText(await pdf.text(1)), `/Rotate ${angle}`).to.equal(upright);
      } finally {
        await pdf.close();
      }
    }
  });

  it('reads table rows as one line each, with the same cells', async () => {
    for (const reader of PDF_READERS) {
      const lines = (await pageText(reader, 'financebench/pdfs/3M_2018_10K.pdf', 58)).split('\n');
      expect(lines, reader).to.include('Total assets $ 36,500 $ 37,987');
      expect((await pageText(reader, 'financebench/pdfs/3M_2018_10K.pdf', 56)).split('\n'), reader).to.include('Net sales $ 32,765 $ 31,657 $ 30,109');
    }
  });

  it('reads a page drawn line by line across three columns of prose column by column (PDFium; pdf.js keeps content order)', async () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const page8 = flat(await pageText('pdfium', 'pdfs/irs-i1040nr-2007.pdf', 8));
    // The first column's first sentence, and the third column's, each whole; content order put them on shared lines.
    expect(page8).to.include('If you have items of U.S. source income that are subject to tax under section 871(a), you will be taxed at a rate of 30% (or lower treaty rate) on your gross income only if this tax exceeds the tax at the regular graduated rates on your net income.');
    expect(page8).to.include('benefits or change your employment or immigration status under U.S. law. If you are filing Form 1040NR for an estate or trust, enter the employer identification number (EIN)');
    expect(page8.indexOf('Line Instructions for Form 1040NR'), 'the second column after the first').to.be.greaterThan(page8.indexOf('rules of section 877.'));
    // Every letter and digit is kept: only the order changes (pdf.js glues some words across the columns).
    const letters = (text: string) => [...text.replace(/[^\p{L}\p{N}]/gu, '')].sort().join('');
    expect(letters(page8)).to.equal(letters(await pageText('pdfjs', 'pdfs/irs-i1040nr-2007.pdf', 8)));
  });

  it('reads a two-column page column by column, word for word as pdf.js', async () => {
    for (const [file, page] of [['pdfs/latex-multicolumn.pdf', 1], ['pdfs/latex-multicolumn.pdf', 2], ['financebench/pdfs/3M_2018_10K.pdf', 58]] as const) {
      const share = inOrder(words(await pageText('pdfjs', file, page)), words(await pageText('pdfium', file, page)));
      expect(share, `${file} page ${page}`).to.be.at.least(0.99);
    }
  });
});

for (const reader of PDF_READERS) describeWithCorpus(`PDF page source (${reader})`, function () {
  this.timeout(60_000);

  it('reads any page by number, in any order, as read in order, also after dropping its caches', async () => {
    const pdf = await openPdfPageSource(reader, readData('pdfs/dmca-summary-1998.pdf'), OPTIONS);
    try {
      expect(pdf.pageCount).to.equal(18);
      const inOrderTexts = [];
      for (let n = 1; n <= 18; n++) inOrderTexts.push(await pdf.text(n));
      for (const n of [18, 3, 9, 1, 9]) expect(await pdf.text(n)).to.equal(inOrderTexts[n - 1]);
      await pdf.dropCaches(); // PDFium closes and opens the document again
      for (const n of [2, 17]) expect(await pdf.text(n)).to.equal(inOrderTexts[n - 1]);
    } finally {
      await pdf.close();
    }
  });

  it('tells drawn pages from blank ones, and renders a scanned page for OCR', async () => {
    const pdf = await openPdfPageSource(reader, readData('pdfs/scanned-huckfinn-p22.pdf'), OPTIONS);
    try {
      expect(await pdf.hasInk(1)).to.equal(true);
      const image = await pdf.renderForOcr(1, 150, 24_000_000);
      expect(image.width).to.be.greaterThan(500);
      expect(image.pgm.length).to.be.greaterThan(image.width * image.height);
      const dark = image.pgm.subarray(image.pgm.length - image.width * image.height).filter((v) => v < 128).length;
      expect(dark / (image.width * image.height)).to.be.within(0.01, 0.5); // text on paper, not a blank or black page
    } finally {
      await pdf.close();
    }
  });
});

describe('PDF page sources: images over PDF_MAX_IMAGE_PIXELS', () => {
  for (const reader of PDF_READERS) {
    it(`leaves a larger image out (nothing drawn, a blank render) instead of decoding it (${reader})`, async () => {
      const canvas = createCanvas(1_500, 1_000);
      const context = canvas.getContext('2d');
      context.fillStyle = '#000';
      context.fillRect(0, 0, 1_500, 1_000);
      const doc = await PDFDocument.create();
      const image = await doc.embedPng(canvas.toBuffer('image/png'));
      doc.addPage([300, 200]).drawImage(image, { x: 0, y: 0, width: 300, height: 200 });
      const bytes = await doc.save();
      const read = async (maxPdfImagePixels: number) => {
        const pdf = await openPdfPageSource(reader, bytes.slice(), { maxPdfImagePixels });
        try {
          const { pgm, width, height } = await pdf.renderForOcr(1, 72, 1_000_000);
          return { ink: await pdf.hasInk(1), dark: pgm.subarray(pgm.length - width * height).filter((v) => v < 128).length / (width * height) };
        } finally {
          await pdf.close();
        }
      };
      const shown = await read(2_000_000);
      expect(shown.ink).to.equal(true);
      expect(shown.dark).to.be.above(0.95);
      const left = await read(1_000_000);
      expect(left.ink).to.equal(false);
      expect(left.dark).to.be.below(0.01);
    });
  }
});

describeWithCorpus('PDFium memory', function () {
  this.timeout(60_000);

  it('frees each document: reading the same 117-page PDF again does not grow its WebAssembly memory', async () => {
    const bytes = readData('pdfs/GeoTopo-komprimiert.pdf');
    const readAll = async () => {
      const pdf = await openPdfPageSource('pdfium', bytes, OPTIONS);
      try {
        for (let n = 1; n <= pdf.pageCount; n++) await pdf.text(n);
      } finally {
        await pdf.close();
      }
    };
    await readAll();
    const after1 = await pdfiumMemoryBytes();
    for (let i = 0; i < 5; i++) await readAll();
    expect(after1).to.be.greaterThan(0);
    expect(await pdfiumMemoryBytes()).to.equal(after1);
  });

  /** The page's grey pixels (the PGM without its header). */
  const pixels = ({ pgm, width, height }: { pgm: Uint8Array; width: number; height: number }) => pgm.subarray(pgm.length - width * height);

  it('renders for OCR in bands of rows: scanned pages pixel for pixel as in one whole-page bitmap, drawn ones within a grey level', async () => {
    const render = async (file: string, page: number, renderBandBytes?: number) => {
      const pdf = await openPdfiumPageSource(readData(file), { ...OPTIONS, renderBandBytes });
      try {
        return await pdf.renderForOcr(page, 300, 24_000_000);
      } finally {
        await pdf.close();
      }
    };
    for (const file of ['pdfs/scanned-huckfinn-p22.pdf', 'pdfs/scanned-linn-2col.pdf', 'pdfs/scanned-epson-wikipedia-ocr.pdf', 'pdfs/irs-i1040nr-2007.pdf']) {
      const whole = await render(file, 1, Infinity);
      // The default bands (4 MB: ~400 rows of a 300-dpi page) and bands of a few rows, where every seam shows.
      for (const bandBytes of [undefined, 50_000]) {
        const banded = await render(file, 1, bandBytes);
        expect([banded.width, banded.height], file).to.deep.equal([whole.width, whole.height]);
        const a = pixels(whole);
        const b = pixels(banded);
        let differing = 0;
        let largest = 0;
        for (let i = 0; i < a.length; i++) {
          if (a[i] === b[i]) continue;
          differing++;
          largest = Math.max(largest, Math.abs(a[i] - b[i]));
        }
        // The IRS form's vector lines are anti-aliased a grey level apart on a few hundred of its 8.4 M pixels
        // (PDFium's rasterizer accumulates coverage per clip); the scans, which are what gets OCR'd, do not change.
        if (file.includes('scanned')) expect(differing, `${file}, ${bandBytes ?? 'default'} bands`).to.equal(0);
        else {
          expect(largest, file).to.be.at.most(1);
          expect(differing / a.length, file).to.be.below(0.001);
        }
      }
    }
  });

  it('does not grow its WebAssembly memory by a whole-page bitmap to render a 300-dpi page for OCR', function () {
    // In a process of its own: WebAssembly memory only grows, so this process's PDFium has been grown by other tests.
    const script = [
      "import fs from 'node:fs';",
      "import { openPdfiumPageSource, pdfiumMemoryBytes } from './adapters/extraction/pdfium-page-source.ts';",
      `const pdf = await openPdfiumPageSource(new Uint8Array(fs.readFileSync(${JSON.stringify(corpusPath('pdfs/scanned-linn-2col.pdf'))})), { maxPdfImagePixels: 50_000_000 });`,
      'const before = await pdfiumMemoryBytes();',
      'const image = await pdf.renderForOcr(1, 300, 24_000_000);',
      'console.log(JSON.stringify({ before, after: await pdfiumMemoryBytes(), pixels: image.width * image.height }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 50_000 });
    expect(run.stderr).to.equal('');
    const { before, after, pixels: count } = JSON.parse(run.stdout) as { before: number; after: number; pixels: number };
    expect(count).to.be.above(8_000_000); // a letter page at 300 dpi: 34 MB as one BGRx bitmap
    expect(after - before).to.be.below(8 * 1024 * 1024);
  });
});
