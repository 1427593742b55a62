import { expect } from 'chai';
import { classifyPages, documentKindClassifier } from '../../../adapters/document-kinds/index.js';
import { DocumentExtractor } from '../../../adapters/extraction/document-extractor.js';
import { DEFAULT_EXTRACTION_SETTINGS } from '../../../adapters/extraction/child-process-document-reader.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { listData, readData, readDataText } from '../../support/extraction-fixtures.js';

/** The text of a PDF's first `pages` pages, as ingestion reads them. */
async function pdfPages(relativePath: string, pages: number): Promise<string[]> {
  const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
  const texts: string[] = [];
  try {
    await extractor.extract(readData(relativePath), 'pdf', { onPage: (page) => texts.push(page.text), onProgress: () => {} }, { firstPage: 1, lastPage: pages });
  } finally {
    await extractor.close();
  }
  return texts;
}

describeWithCorpus('the kind of a document, from its own text and layout (real documents of the corpus)', function () {
  this.timeout(120_000);

  it('tells each photographed till receipt (its OCR lines) as a receipt, and says why', () => {
    const receipts = listData('images', /^receipt_.*\.textract_lines\.txt$/);
    expect(receipts).to.have.length(7);
    for (const file of receipts) {
      const verdict = classifyPages([readDataText(`images/${file}`)]);
      expect(verdict.kind, file).to.equal('receipt');
      expect(verdict.reasons.join('; '), file).to.match(/of lines end in a price/);
    }
  });

  it('tells annual and quarterly filings and an earnings release as financial reports, 8-Ks (one all prose) by their covers too', async () => {
    for (const file of ['3M_2018_10K.pdf', 'AMCOR_2023Q4_EARNINGS.pdf', 'AMCOR_2023Q2_10Q.pdf', 'FOOTLOCKER_2022_8K_dated-2022-05-20.pdf', 'AMCOR_2022_8K_dated-2022-07-01.pdf']) {
      expect(classifyPages(await pdfPages(`financebench/pdfs/${file}`, 30)).kind, file).to.equal('financial-report');
    }
  });

  it('tells tax instructions as a form, and lecture notes (German), a paper, a government report and a brochure as other', async () => {
    expect(classifyPages(await pdfPages('pdfs/irs-i1040nr-2007.pdf', 12)).kind).to.equal('form');
    for (const file of ['GeoTopo-komprimiert.pdf', 'latex-multicolumn.pdf', 'dmca-summary-1998.pdf', 'federal-register-2020-17221.pdf', 'pdflatex-outline.pdf']) {
      expect(classifyPages(await pdfPages(`pdfs/${file}`, 12)).kind, file).to.equal('other');
    }
    expect(classifyPages([readDataText('images/linn_sequencer.reference.txt')]).kind).to.equal('other');
  });
});

describe('the kind of a document: letters, and the tally ingestion keeps', () => {
  const letter = (salutation: string, body: string, closing: string) => ['Acme Property Ltd', '12 High Street', 'London', '3 March 2024', salutation, body, closing, 'Jane Smith'].join('\n');

  it('tells a letter by its salutation and closing, in English, German and French', () => {
    const body = 'Thank you for your letter of 1 March. We have looked at the points you raised and will reply to each of them in turn before the end of the month.';
    expect(classifyPages([letter('Dear Mr Brown,', body, 'Yours sincerely,')]).kind).to.equal('letter');
    expect(classifyPages([letter('Sehr geehrte Frau Braun,', 'vielen Dank für Ihr Schreiben vom 1. März. Wir antworten bis Ende des Monats.', 'Mit freundlichen Grüßen')]).kind).to.equal('letter');
    expect(classifyPages([letter('Madame, Monsieur,', 'Nous vous remercions de votre lettre du 1er mars et y répondrons avant la fin du mois.', 'Veuillez agréer, Madame, Monsieur, nos salutations distinguées.')]).kind).to.equal('letter');
  });

  it('calls prose with none of the marks "other", and the tally over pages tells what the whole texts tell', () => {
    const prose = 'The committee met in spring. It discussed the new library, the river path and the school buses, and agreed to meet again after the summer.';
    expect(classifyPages([prose, prose]).kind).to.equal('other');
    const receipt = ['SHOP', 'MILK 1,19', 'BREAD 2,49', 'APPLES 3,29', 'BUTTER 1,99', 'SUMME 8,96', 'BAR 10,00', 'RÜCKGELD 1,04'].join('\n');
    const tally = documentKindClassifier.start();
    tally.addPage(receipt);
    expect(tally.kind()).to.equal(classifyPages([receipt]).kind).and.to.equal('receipt');
    expect(documentKindClassifier.kinds).to.include.members(['receipt', 'financial-report', 'form', 'letter', 'other']);
  });
});
