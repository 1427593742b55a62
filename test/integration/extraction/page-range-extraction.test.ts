import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DEFAULT_EXTRACTION_SETTINGS } from '../../../adapters/extraction/child-process-document-reader.js';
import { DocumentExtractor, type PageRange } from '../../../adapters/extraction/document-extractor.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { MALFORMED_PDF, pagedTextPdf } from '../../support/generated-documents.js';

const BOOK = await pagedTextPdf(Array.from({ length: 30 }, (_, i) => [`Page ${i + 1} of a generated report.`, 'It has a text layer.']));

let dir: string; // made when tests run: loading the file (mocha --dry-run) must leave nothing behind
let files = 0;
/** A file holding `bytes`, as the extraction process gets its document. */
function documentFile(bytes: Uint8Array): string {
  const file = path.join(dir, `document-${++files}.pdf`);
  fs.writeFileSync(file, bytes);
  return file;
}

/** Reads `range` of the PDF in `file`. */
async function readRange(extractor: DocumentExtractor, file: string, range: PageRange) {
  const pages: ExtractedPage[] = [];
  let total = 0;
  await extractor.extract({ file }, 'pdf', { onStart: (n) => (total = n), onPage: (page) => pages.push(page), onProgress: () => {} }, range);
  return { pages, total };
}

describe('DocumentExtractor page ranges (in this process)', function () {
  this.timeout(60_000);
  const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-page-ranges-'))));
  after(async () => {
    await extractor.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads only the pages of its range, reporting the whole page count', async () => {
    const file = documentFile(BOOK);
    const { pages, total } = await readRange(extractor, file, { firstPage: 11, lastPage: 20 });
    expect(total).to.equal(30);
    expect(pages.map((page) => page.page)).to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pages[0].text).to.include('Page 11 of a generated report.');
    const end = await readRange(extractor, file, { firstPage: 25, lastPage: 60 });
    expect(end.pages.map((page) => page.page)).to.deep.equal([25, 26, 27, 28, 29, 30]);
  });

  it('keeps the PDF open for the next range of the same name, and opens another name afresh', async () => {
    // The file is removed after the first range: a range that opened it again would fail.
    const file = documentFile(BOOK);
    await readRange(extractor, file, { firstPage: 1, lastPage: 10, keepOpenAs: 'a' });
    fs.rmSync(file);
    const second = await readRange(extractor, file, { firstPage: 11, lastPage: 20, keepOpenAs: 'a' });
    expect(second.pages.map((page) => page.page), 'the second range of "a" reused the open PDF').to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const other = await readRange(extractor, file, { firstPage: 1, lastPage: 5, keepOpenAs: 'b' }).then(() => undefined, (e: Error) => e);
    expect(other?.message, 'another name opens its file').to.match(/ENOENT/);
    fs.writeFileSync(file, BOOK);
    await readRange(extractor, file, { firstPage: 1, lastPage: 5, keepOpenAs: 'b' });
    await extractor.closeKeptPdf();
    fs.rmSync(file);
    const closed = await readRange(extractor, file, { firstPage: 6, lastPage: 10, keepOpenAs: 'b' }).then(() => undefined, (e: Error) => e);
    expect(closed?.message, 'closed: opened again').to.match(/ENOENT/);
  });

  it('does not keep a PDF that failed to open', async () => {
    const file = documentFile(MALFORMED_PDF);
    const error = await readRange(extractor, file, { firstPage: 1, lastPage: 10, keepOpenAs: 'broken' }).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/not a valid PDF/);
    // Mended under the same name: read afresh, not answered from a kept failure.
    fs.writeFileSync(file, BOOK);
    const { pages } = await readRange(extractor, file, { firstPage: 1, lastPage: 2, keepOpenAs: 'broken' });
    expect(pages.map((page) => page.page)).to.deep.equal([1, 2]);
  });
});
