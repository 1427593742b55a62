import { ChildProcessDocumentReader } from '../../adapters/extraction/index.js';
import { readData } from '../support/extraction-fixtures.js';
import { documentReaderContract } from './document-reader.contract.js';

describe('ChildProcessDocumentReader', function () {
  const reader = new ChildProcessDocumentReader();
  after(() => reader.close());

  documentReaderContract('ChildProcessDocumentReader (pdf.js and tesseract.js in a child process)', () => reader, {
    pdf: {
      bytes: readData('pdfs/dmca-summary-1998.pdf'),
      pages: 18,
      textOnPage: { 1: ['THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998'], 2: ['TITLE I: WIPO TREATY IMPLEMENTATION'] },
    },
    jpeg: { bytes: readData('images/tesseractjs_simple.jpg'), text: ['Tesseract.js'] },
    timeoutMs: 60_000,
  });
});
