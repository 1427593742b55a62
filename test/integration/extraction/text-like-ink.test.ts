import { expect } from 'chai';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { DocumentExtractor } from '../../../adapters/extraction/document-extractor.js';
import { DEFAULT_EXTRACTION_SETTINGS } from '../../../adapters/extraction/child-process-document-reader.js';
import { darkestChannelPgm, hasTextLikeInk, textLikeInkPixels, type OcrImage } from '../../../adapters/extraction/ocr-image.js';
import { openPdfPageSource } from '../../../adapters/extraction/open-pdf-page-source.js';
import { PDF_READERS, type PdfReaderName } from '../../../adapters/extraction/pdf-page-source.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { FONT_FAMILY } from '../../support/generated-documents.js';
import { readData } from '../../support/extraction-fixtures.js';

/** A letter page at 300 dpi (2550 x 3300), white, with what `draw` puts on it, as the OCR path sees it. */
function page(draw: (ctx: SKRSContext2D) => void): OcrImage {
  const canvas = createCanvas(2550, 3300);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 2550, 3300);
  ctx.fillStyle = '#000000';
  ctx.strokeStyle = '#000000';
  draw(ctx);
  return darkestChannelPgm(ctx.getImageData(0, 0, 2550, 3300).data, 2550, 3300);
}

const rule = (ctx: SKRSContext2D) => ctx.fillRect(150, 150, 2250, 4);
const border = (ctx: SKRSContext2D) => {
  ctx.lineWidth = 6;
  ctx.strokeRect(100, 100, 2350, 3100);
};
// Liberation Sans from pdfjs-dist, not the system's "sans-serif": @napi-rs/canvas 1.x resolves that name to another
// face than 0.1.x did, with 392 against 334 pixels of ink for this page number (the threshold is 421).
const pageNumber = (ctx: SKRSContext2D) => {
  ctx.font = `38px "${FONT_FAMILY}"`; // 9 pt at 300 dpi
  ctx.fillText('18', 1250, 3150);
};
const sentence = (ctx: SKRSContext2D) => {
  ctx.font = `50px "${FONT_FAMILY}"`; // 12 pt
  ctx.fillText('Item 7. Management’s discussion and analysis', 200, 600);
};

describe('OCR only where ink could be text (issue 18)', () => {
  it('a blank page, a rule, a border, a filled box: nothing to read', () => {
    expect(hasTextLikeInk(page(() => {}))).to.equal(false);
    expect(hasTextLikeInk(page(rule))).to.equal(false);
    expect(hasTextLikeInk(page(border))).to.equal(false);
    expect(hasTextLikeInk(page((ctx) => ctx.fillRect(400, 400, 1200, 900)))).to.equal(false);
  });

  it('a rule with a page number under it is still nothing to read; one line of words is', () => {
    expect(hasTextLikeInk(page((ctx) => (rule(ctx), pageNumber(ctx))))).to.equal(false);
    expect(hasTextLikeInk(page(sentence))).to.equal(true);
    // Words inside a bordered box and above a rule: the lines are set aside, the words still count.
    const framed = page((ctx) => (border(ctx), rule(ctx), sentence(ctx)));
    expect(hasTextLikeInk(framed)).to.equal(true);
    expect(textLikeInkPixels(framed)).to.equal(textLikeInkPixels(page(sentence)));
  });

  it('counts the dark pixels off long runs, and stops counting once it has enough', () => {
    const words = page(sentence);
    const all = textLikeInkPixels(words);
    expect(all).to.be.greaterThan(1_000);
    expect(textLikeInkPixels(words, 100)).to.be.within(100, all - 1);
    expect(textLikeInkPixels(page(rule))).to.equal(0);
  });
});

/**
 * Real filings have pages drawn with only a rule (and a page number) and no text layer: with pdf.js and PDFium alike,
 * they are not sent to OCR; a logo with small print and every scanned page still are.
 */
describeWithCorpus('OCR only where ink could be text, on real pages', function () {
  this.timeout(120_000);

  const rendered = async (file: string, num: number, reader: PdfReaderName = 'pdfium'): Promise<OcrImage> => {
    const pdf = await openPdfPageSource(reader, readData(file), { maxPdfImagePixels: DEFAULT_EXTRACTION_SETTINGS.maxPdfImagePixels });
    try {
      return await pdf.renderForOcr(num, DEFAULT_EXTRACTION_SETTINGS.renderDpi, DEFAULT_EXTRACTION_SETTINGS.maxImagePixels);
    } finally {
      await pdf.close();
    }
  };

  it('a 10-K page with a rule and its page number, and one with only a rule: no OCR', async () => {
    for (const reader of PDF_READERS) {
      expect(hasTextLikeInk(await rendered('financebench/pdfs/BESTBUY_2017_10K.pdf', 20, reader)), reader).to.equal(false);
      expect(hasTextLikeInk(await rendered('financebench/pdfs/BESTBUY_2019_10K.pdf', 21, reader)), reader).to.equal(false);
    }
  });

  it('a 10-K page with a certification logo and its small print, and every scanned page: OCR', async () => {
    expect(hasTextLikeInk(await rendered('financebench/pdfs/BESTBUY_2017_10K.pdf', 101))).to.equal(true);
    for (const file of ['scanned-epson-wikipedia-ocr.pdf', 'scanned-huckfinn-p22.pdf', 'scanned-linn-2col.pdf']) {
      expect(hasTextLikeInk(await rendered(`pdfs/${file}`, 1)), file).to.equal(true);
    }
  });

  it('the extractor reads such pages without starting the OCR engine, keeping their text layer', async () => {
    const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
    let recognized = 0;
    extractor.ocr.recognize = async () => (recognized++, '');
    const pages: ExtractedPage[] = [];
    const bytes = readData('financebench/pdfs/BESTBUY_2017_10K.pdf');
    await extractor.extract(bytes, 'pdf', { onPage: (p) => pages.push(p), onProgress: () => {} }, { firstPage: 19, lastPage: 21 });
    expect(recognized).to.equal(0);
    expect(pages.map((p) => p.page)).to.deep.equal([19, 20, 21]);
    expect(pages[1]).to.deep.include({ page: 20, text: '18', method: 'text' });
    await extractor.close();
  });
});
