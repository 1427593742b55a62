import { expect } from 'chai';
import { normalizeExtractedText } from '../../../adapters/extraction/normalize-text.js';
import { openPdfPageSource } from '../../../adapters/extraction/open-pdf-page-source.js';
import { PDF_READERS, type PdfReaderName } from '../../../adapters/extraction/pdf-page-source.js';
import { readTatqa, type TatqaContext } from '../../../bench/tatqa-data.js';
import { forPrint, headerRowCount, isFigureCell, TATQA_PAGE_TITLE, tatqaPagePdf } from '../../../bench/tatqa-page.js';
import { describeWithCorpus } from '../../support/corpus.js';

/** Every page's text as the service's readers extract it, pages joined. */
async function extracted(reader: PdfReaderName, bytes: Uint8Array): Promise<{ text: string; pages: number; texts: string[] }> {
  // A copy: pdf.js takes the buffer it is given (it is detached afterwards).
  const pdf = await openPdfPageSource(reader, bytes.slice(), { maxPdfImagePixels: 50_000_000 });
  try {
    const pages: string[] = [];
    for (let page = 1; page <= pdf.pageCount; page++) pages.push(normalizeExtractedText(await pdf.text(page)));
    return { text: pages.join('\n'), pages: pdf.pageCount, texts: pages };
  } finally {
    await pdf.close();
  }
}

/**
 * Whether the body rows' cells come out in row order: each row's cells, word by word, found one after another in the
 * extracted words (header rows repeated after a page break, or a label wrapped, leave words between them).
 * Returns the first cell not found in order, or undefined.
 */
function firstCellOutOfOrder(table: string[][], text: string): string | undefined {
  const words = text.split(/\s+/).filter(Boolean);
  let at = 0;
  for (const row of table.slice(headerRowCount(table))) {
    for (const cell of row) {
      for (const word of cell.split(/\s+/).filter(Boolean)) {
        const found = words.indexOf(word, at);
        if (found < 0) return `${cell} (row ${JSON.stringify(row)})`;
        at = found + 1;
      }
    }
  }
  return undefined;
}

const context = (table: string[][], paragraphs: string[]): TatqaContext => ({
  table: { uid: 'test', table },
  paragraphs: paragraphs.map((text, i) => ({ uid: `p${i}`, order: i + 1, text })),
  questions: [],
});

const SALES = [
  ['', '', 'Years Ended September 30,', ''],
  ['', '2019', '2018', '2017'],
  ['Fixed Price', '$  1,452.4', '$  1,146.2', '$  1,036.9'],
  ['Other', '44.1', '56.7', '70.8'],
  ['Total sales', '$1,496.5', '$1,202.9', '$1,107.7'],
];

describe('TAT-QA report page (bench/tatqa-page.ts)', function () {
  this.timeout(30_000);

  it('tells figures from labels, and the header rows from the body', () => {
    for (const cell of ['$  1,452.4', '(12.6)', '12%', '—', '-', '2019', '$ (3,250)']) expect(isFigureCell(cell), cell).to.equal(true);
    for (const cell of ['Total sales', 'Less Than 1 Year', '2-5 Years', '']) expect(isFigureCell(cell), cell).to.equal(false);
    expect(headerRowCount(SALES)).to.equal(2);
    expect(headerRowCount([['As of', '2019', '2018'], ['Assets', '', ''], ['Cash', '$130', '$91']])).to.equal(1);
  });

  for (const reader of PDF_READERS) {
    it(`prints title, prose and the table as real text, read back in row order (${reader})`, async () => {
      const intro = 'The table below presents total net sales disaggregated by contract type (in millions):';
      const bytes = await tatqaPagePdf(context(SALES, [intro, 'Sales included in Other contract types represent cost plus contracts.']));
      const { text } = await extracted(reader, bytes);
      expect(text.startsWith(TATQA_PAGE_TITLE)).to.equal(true);
      expect(text).to.include(intro);
      expect(text).to.match(/Fixed Price \$ 1,452\.4 \$ 1,146\.2 \$ 1,036\.9\s+Other 44\.1 56\.7 70\.8\s+Total sales \$1,496\.5/);
      // The table follows the paragraph announcing it, before the next one.
      expect(text.indexOf('Total sales')).to.be.lessThan(text.indexOf('Sales included in Other'));
    });
  }

  it('maps what WinAnsi cannot encode and keeps what it can (’ — €)', async () => {
    const bytes = await tatqaPagePdf(context([['', '2019'], ['Revenue ≥ €5', '€ 5.0'], ['Other', '\u22121']], ['The company’s revenue — in € — rose → fast.']));
    const { text } = await extracted('pdfium', bytes);
    expect(text).to.include('The company’s revenue — in € — rose');
    expect(text).to.match(/Revenue\s+€5\s+€ 5\.0/);
    expect(text).to.match(/Other -1\b/); // U+2212, which WinAnsi lacks, keeps its sign as a hyphen-minus
  });

  it('keeps the header rows with the first row: a page with room for one header row only starts the table on the next', async () => {
    // A paragraph that ends at every height near the foot of the first page, half a line apart.
    let split = 0;
    for (let words = 1500; words <= 1800; words += 15) {
      const prose = Array.from({ length: words }, (_, i) => `w${i % 10}`).join(' ');
      const { texts } = await extracted('pdfium', await tatqaPagePdf(context(SALES, [prose])));
      const page = texts.find((t) => t.includes('Fixed Price'))!;
      if (texts.indexOf(page) > 0) split++;
      expect(page.indexOf('Years Ended September 30,'), `${words} words`).to.be.within(0, page.indexOf('2019 2018 2017'));
      expect(page.indexOf('2019 2018 2017'), `${words} words`).to.be.lessThan(page.indexOf('Fixed Price'));
    }
    expect(split, 'some of them leave the table to the next page').to.be.greaterThan(0);
  });

  it('breaks a long table over pages, its header rows printed again on the next', async () => {
    const rows = Array.from({ length: 90 }, (_, i) => [`Item ${i + 1}`, String(1000 + i), String(2000 + i)]);
    const table = [['', '2019', '2018'], ...rows];
    const { text, pages } = await extracted('pdfium', await tatqaPagePdf(context(table, ['The following table lists the items:'])));
    expect(pages).to.be.greaterThan(1);
    expect(text.match(/2019 2018/g)).to.have.length(pages);
    expect(firstCellOutOfOrder(table, text)).to.equal(undefined);
  });
});

describeWithCorpus('TAT-QA report pages of the real contexts (bench/tatqa-page.ts)', function () {
  this.timeout(120_000);

  it('reads every body cell back in row order, for every 10th context, with both readers', async () => {
    const contexts = readTatqa().filter((_, i) => i % 10 === 0);
    for (const c of contexts) {
      const bytes = await tatqaPagePdf(c);
      for (const reader of PDF_READERS) {
        const { text } = await extracted(reader, bytes);
        // The table's cells as the page prints them (make-pdf.ts toWinAnsi keeps every other character of these cells).
        const table = c.table.table.map((row) => row.map(forPrint));
        expect(firstCellOutOfOrder(table, text), `${c.table.uid} (${reader})`).to.equal(undefined);
        for (const p of c.paragraphs.slice(0, 1)) expect(text.replace(/\s+/g, ' '), c.table.uid).to.include(p.text.replace(/\s+/g, ' ').trim().slice(0, 60));
      }
    }
  });
});
