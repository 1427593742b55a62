import { ChildProcessDocumentReader, PDF_READERS } from '../../adapters/extraction/index.js';
import { pagedTextPdf, textJpeg } from '../support/generated-documents.js';
import { documentReaderContract } from './document-reader.contract.js';

// Generated documents: a three-page text PDF and a photographed word (OCR). The real-document corpus is read by
// test/integration/extraction/child-process-document-reader.test.ts.
const PDF = await pagedTextPdf([
  ['THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998', 'A summary of the act, title by title.'],
  ['TITLE I: WIPO TREATY IMPLEMENTATION', 'Circumvention of technological protection measures.'],
  ['TITLE II: ONLINE COPYRIGHT INFRINGEMENT LIABILITY LIMITATION'],
]);
const JPEG = textJpeg(['Tesseract.js'], { width: 320, height: 180, fontSize: 36, margin: 40 });

// Once per PDF reader (PDF_READER): the same contract, the same documents, the same expected text.
for (const pdfReader of PDF_READERS) describe(`ChildProcessDocumentReader (PDF_READER=${pdfReader})`, function () {
  const reader = new ChildProcessDocumentReader({ pdfReader });
  after(() => reader.close());

  documentReaderContract(`ChildProcessDocumentReader (${pdfReader} and tesseract.js in a child process)`, () => reader, {
    pdf: {
      bytes: PDF,
      pages: 3,
      textOnPage: {
        1: ['THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998'],
        2: ['TITLE I: WIPO TREATY IMPLEMENTATION'],
        3: ['ONLINE COPYRIGHT INFRINGEMENT LIABILITY'],
      },
    },
    jpeg: { bytes: JPEG, text: ['Tesseract.js'] },
    timeoutMs: 60_000,
  });
});
