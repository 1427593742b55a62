import { expect } from 'chai';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import { normalizeExtractedText } from '../../../adapters/extraction/normalize-text.js';
import { openPdfPageSource } from '../../../adapters/extraction/open-pdf-page-source.js';
import type { PdfReaderName } from '../../../adapters/extraction/pdf-page-source.js';

const HEADINGS = ['Total', 'Less Than 1 Year', '1-3 Years', '3-5 Years', 'More Than 5 Years'];
const ROWS: [string, ...string[]][] = [
  ['Operating leases', '$98,389', '$37,427', '$36,581', '$12,556', '$11,825'],
  ['Purchase obligations', '424,561', '345,498', '28,946', '13,442', '36,675'],
  ['Total', '$522,950', '$382,925', '$65,527', '$25,998', '$48,500'],
];

/**
 * A page as a report prints a table of obligations: a paragraph, then the headings right-aligned over their figure
 * columns and wrapped within them ("Less Than" over "1 Year"), drawn heading by heading, then the rows.
 */
async function obligationsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const draw = (p: PDFPage, text: string, x: number, y: number, f: PDFFont) => p.drawText(text, { x, y, size: 9, font: f });
  draw(page, 'Our contractual obligations as of June 30, 2019 are set out in the table below by when they fall due.', 56, 700, font);
  const right = [300, 360, 420, 480, 540];
  HEADINGS.forEach((heading, k) => {
    // Wrapped at the column's width: two words a line.
    const words = heading.split(' ');
    const lines = words.length > 2 ? [words.slice(0, 2).join(' '), words.slice(2).join(' ')] : [heading];
    lines.forEach((line, n) => draw(page, line, right[k] - font.widthOfTextAtSize(line, 9), 670 - 12 * n, font));
  });
  draw(page, '(in thousands)', 56, 646, font);
  ROWS.forEach(([label, ...figures], r) => {
    draw(page, label, 56, 630 - 13 * r, font);
    figures.forEach((figure, k) => draw(page, figure, right[k] - font.widthOfTextAtSize(figure, 9), 630 - 13 * r, font));
  });
  return doc.save();
}

async function pageText(reader: PdfReaderName): Promise<string> {
  const pdf = await openPdfPageSource(reader, await obligationsPdf(), { maxPdfImagePixels: 50_000_000 });
  try {
    return normalizeExtractedText(await pdf.text(1));
  } finally {
    await pdf.close();
  }
}

describe('a table whose headings wrap in their columns, read from a real PDF (PDFium)', () => {
  it('gives the headings as one line, a cell per column, and keeps the rows and the paragraph as printed', async () => {
    const lines = (await pageText('pdfium')).split('\n');
    expect(lines).to.include('Total | Less Than 1 Year | 1-3 Years | 3-5 Years | More Than 5 Years');
    expect(lines).to.include('Purchase obligations 424,561 345,498 28,946 13,442 36,675');
    expect(lines[0]).to.match(/^Our contractual obligations as of June 30, 2019/);
    // pdf.js's layout (PDF_READER=pdfjs) has no segments to read columns by: its text keeps the words as drawn.
    expect(await pageText('pdfjs')).to.not.include(' | ');
  });

  it('lets the answer take the figure under the column the question names', async () => {
    const text = await pageText('pdfium');
    const answer = await new ExtractiveAnswerer().answer({
      question: 'What were the purchase obligations due in more than 5 years?',
      history: [],
      contexts: [{ ref: '1', filename: 'obligations.pdf', page: 1, text, score: 1 }],
    });
    expect(answer.text.split('\n')[0]).to.equal('Purchase obligations, More Than 5 Years: $36,675 thousand');
  });
});
