import { expect } from 'chai';
import { DEFAULT_EXTRACTION_SETTINGS } from '../../../adapters/extraction/child-process-document-reader.js';
import { DocumentExtractor, type PageRange } from '../../../adapters/extraction/document-extractor.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { MALFORMED_PDF, pagedTextPdf } from '../../support/generated-documents.js';

const BOOK = await pagedTextPdf(Array.from({ length: 30 }, (_, i) => [`Page ${i + 1} of a generated report.`, 'It has a text layer.']));

/** Reads `range` of `bytes` (given as a function counting its calls: a kept PDF is not read again). */
async function readRange(extractor: DocumentExtractor, bytes: Uint8Array, range: PageRange, reads: { count: number }) {
  const pages: ExtractedPage[] = [];
  let total = 0;
  const source = () => {
    reads.count++;
    return bytes.slice(); // pdf.js takes the buffer it is given
  };
  await extractor.extract(source, 'pdf', { onStart: (n) => (total = n), onPage: (page) => pages.push(page), onProgress: () => {} }, range);
  return { pages, total };
}

describe('DocumentExtractor page ranges (in this process)', function () {
  this.timeout(60_000);
  const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
  after(() => extractor.close());

  it('reads only the pages of its range, reporting the whole page count', async () => {
    const { pages, total } = await readRange(extractor, BOOK, { firstPage: 11, lastPage: 20 }, { count: 0 });
    expect(total).to.equal(30);
    expect(pages.map((page) => page.page)).to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pages[0].text).to.include('Page 11 of a generated report.');
    const end = await readRange(extractor, BOOK, { firstPage: 25, lastPage: 60 }, { count: 0 });
    expect(end.pages.map((page) => page.page)).to.deep.equal([25, 26, 27, 28, 29, 30]);
  });

  it('keeps the PDF open for the next range of the same name, and opens another name afresh', async () => {
    const reads = { count: 0 };
    await readRange(extractor, BOOK, { firstPage: 1, lastPage: 10, keepOpenAs: 'a' }, reads);
    const second = await readRange(extractor, BOOK, { firstPage: 11, lastPage: 20, keepOpenAs: 'a' }, reads);
    expect(reads.count, 'the second range of "a" reused the open PDF').to.equal(1);
    expect(second.pages.map((page) => page.page)).to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    await readRange(extractor, BOOK, { firstPage: 1, lastPage: 5, keepOpenAs: 'b' }, reads);
    expect(reads.count).to.equal(2);
    await extractor.closeKeptPdf();
    await readRange(extractor, BOOK, { firstPage: 6, lastPage: 10, keepOpenAs: 'b' }, reads);
    expect(reads.count, 'closed: opened again').to.equal(3);
  });

  it('does not keep a PDF that failed to open', async () => {
    const reads = { count: 0 };
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await readRange(extractor, MALFORMED_PDF, { firstPage: 1, lastPage: 10, keepOpenAs: 'broken' }, reads).then(() => undefined, (e: Error) => e);
      expect(error?.message).to.match(/not a valid PDF/);
    }
    expect(reads.count).to.equal(2);
  });
});
