import { expect } from 'chai';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { ChildProcessDocumentReader, PDF_READERS } from '../../../adapters/extraction/index.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { listData, eventLoopBusyShare, readData, rotatedData, readDataText, wordRecall } from '../../support/extraction-fixtures.js';
import { allText, expectIncreasingToOne, rejection } from './reader-assertions.js';

const PDF = 'application/pdf';
const JPEG = 'image/jpeg';

/**
 * The same reader on the real-document corpus (DOC_CHAT_CORPUS), its PDFs read by each PDF reader (PDF_READER) with
 * the same expected outcome; generated documents: child-process-document-reader.test.ts.
 */
for (const pdfReader of PDF_READERS) describeWithCorpus(`ChildProcessDocumentReader (real PDFs, PDF_READER=${pdfReader})`, function () {
  this.timeout(60_000);
  const reader = new ChildProcessDocumentReader({ pdfReader });
  after(() => reader.close());

  describe('PDFs with a text layer', () => {
    it('reads a one-page Google Docs export', async () => {
      const pages = await reader.read({ document: readData('pdfs/google-doc-document.pdf'), contentType: PDF });
      expect(pages.map((page) => [page.page, page.method])).to.deep.equal([[1, 'text']]);
      for (const phrase of ['Beautiful is better than ugly.', 'Explicit is better than implicit.']) expect(pages[0].text).to.include(phrase);
    });

    it('reads an owner-password encrypted PDF that opens without a password', async () => {
      const pages = await reader.read({ document: readData('pdfs/dmca-summary-1998.pdf'), contentType: PDF });
      expect(pages.map((page) => page.page)).to.deep.equal(Array.from({ length: 18 }, (_, i) => i + 1));
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      expect(pages[0].text).to.include('THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998');
      expect(pages[1].text).to.include('TITLE I: WIPO TREATY IMPLEMENTATION');
      expect(allText(pages)).to.include('Circumvention of Technological Protection Measures');
    });

    it('parses a 117-page PDF off the event loop, reporting progress', async () => {
      const progress: number[] = [];
      const { result: pages, busyShare } = await eventLoopBusyShare(() =>
        reader.read({
          document: readData('pdfs/GeoTopo-komprimiert.pdf'),
          contentType: PDF,
          onProgress: (fraction) => progress.push(fraction),
        }),
      );
      expect(pages).to.have.length(117);
      expect(pages.map((page) => page.page)).to.deep.equal(Array.from({ length: 117 }, (_, i) => i + 1));
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      expect(pages[0].text).to.include('Geometrie und Topologie');
      // Read on the event loop, the share is 1.0 with either PDF reader; read in the child, 0.05-0.25 here.
      expect(busyShare, 'share of the read the event loop was busy').to.be.below(0.5);
      expectIncreasingToOne(progress);
      expect(progress.length).to.be.greaterThan(20); // per page, not just "done"
    });
  });

  describe('scanned PDFs (OCR)', () => {
    it('OCRs an image-only book page', async () => {
      const pages = await reader.read({ document: readData('pdfs/scanned-huckfinn-p22.pdf'), contentType: PDF });
      expect(pages).to.have.length(1);
      expect(pages[0].method).to.equal('ocr');
      for (const phrase of ['tip-toeing along a path', 'kitchen door', 'Miss Watson', 'Who dah?', 'listened some more']) {
        expect(pages[0].text).to.include(phrase);
      }
    });

    it('OCRs a scanned printout and reports progress within the page', async () => {
      const progress: number[] = [];
      const pages = await reader.read({
        document: readData('pdfs/scanned-epson-wikipedia-ocr.pdf'),
        contentType: PDF,
        onProgress: (fraction) => progress.push(fraction),
      });
      expect(pages).to.have.length(1);
      expect(pages[0].method).to.equal('ocr');
      for (const phrase of ['Optical character recognition', 'From Wikipedia, the free encyclopedia', 'Emanuel Goldberg', 'telegraph code']) {
        expect(pages[0].text).to.include(phrase);
      }
      expectIncreasingToOne(progress);
      expect(progress.length).to.be.greaterThan(5);
    });
  });

  describe('unreadable PDFs', () => {
    for (const file of ['encrypted-libreoffice-openpassword.pdf', 'encrypted-skew-password.pdf']) {
      it(`explains that ${file} needs a password`, async () => {
        const error = await rejection(reader.read({ document: readData(`pdfs/${file}`), contentType: PDF }));
        expect(error).to.be.instanceOf(UnprocessableDocumentError);
        expect(error.message).to.match(/password/i);
      });
    }

    it('rejects a malformed PDF', async () => {
      const error = await rejection(reader.read({ document: readData('pdfs/malformed-invalid.pdf'), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file is not a valid PDF (it is damaged or truncated)');
    });

    it('rejects a truncated PDF', async () => {
      const bytes = readData('pdfs/GeoTopo-komprimiert.pdf');
      const error = await rejection(reader.read({ document: bytes.subarray(0, bytes.length / 2), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/not a valid PDF/);
    });
  });

  // The rest of the corpus: every page read, each as the same kind as with the other reader.
  for (const [file, count, method] of [
    ['arabic-habibi.pdf', 1, 'text'], ['federal-register-2020-17221.pdf', 15, 'text'], ['irs-i1040nr-2007.pdf', 50, 'text'],
    ['latex-multicolumn.pdf', 3, 'text'], ['nics-background-checks-2015-11.pdf', 1, 'text'], ['scanned-linn-2col.pdf', 1, 'ocr'],
  ] as const) {
    it(`reads ${file}: ${count} pages, ${method}`, async () => {
      const pages = await reader.read({ document: readData(`pdfs/${file}`), contentType: PDF });
      expect(pages.map((page) => [page.page, page.method])).to.deep.equal(Array.from({ length: count }, (_, i) => [i + 1, method]));
      expect(pages.every((page) => page.text.trim() !== '')).to.equal(true);
    });
  }

  for (const angle of [90, 180, 270]) {
    it(`reads a page turned by /Rotate ${angle} as text`, async () => {
      const pages = await reader.read({ document: await rotatedData('pdfs/google-doc-document.pdf', angle), contentType: PDF });
      expect(pages.map((page) => [page.page, page.method])).to.deep.equal([[1, 'text']]);
      for (const phrase of ['Beautiful is better than ugly.', 'Explicit is better than implicit.']) expect(pages[0].text).to.include(phrase);
    });
  }

  it('queues concurrent documents and answers each with its own pages', async () => {
    const [doc, image, broken] = await Promise.allSettled([
      reader.read({ document: readData('pdfs/pdflatex-outline.pdf'), contentType: PDF }),
      reader.read({ document: readData('images/tesseractjs_simple.jpg'), contentType: JPEG }),
      reader.read({ document: readData('pdfs/malformed-invalid.pdf'), contentType: PDF }),
    ]);
    expect(doc.status === 'fulfilled' && doc.value.length).to.equal(4);
    expect(image.status === 'fulfilled' && image.value[0].text).to.include('Tesseract.js');
    expect(broken.status === 'rejected' && broken.reason).to.be.instanceOf(UnprocessableDocumentError);
  });
});

/** Photos do not go through a PDF reader: read once. */
describeWithCorpus('ChildProcessDocumentReader (real photos)', function () {
  this.timeout(60_000);
  const reader = new ChildProcessDocumentReader();
  after(() => reader.close());

  describe('JPEG photos and scans (OCR)', () => {
    it('reads the tesseract.js test page (>= 90% of ground-truth words)', async () => {
      const pages = await reader.read({ document: readData('images/tesseractjs_testocr.jpg'), contentType: JPEG });
      expect(pages).to.have.length(1);
      expect(pages[0]).to.include({ page: 1, method: 'ocr' });
      expect(wordRecall(readDataText('images/tesseractjs_testocr.gt.txt'), pages[0].text)).to.be.at.least(0.9);
    });

    for (const file of ['tesseractjs_simple.jpg', 'tesseractjs_simple-90.jpg']) {
      it(`reads "Tesseract.js" from ${file}`, async () => {
        const pages = await reader.read({ document: readData(`images/${file}`), contentType: 'image/jpg' });
        expect(pages[0].text).to.include('Tesseract.js');
      });
    }

    it('leaves out what OCR reads a stamp and a smudge as, and keeps the page’s print', async () => {
      const pages = await reader.read({ document: readData('images/congress_1871.jpg'), contentType: JPEG });
      expect(pages[0].text).not.to.include('1 L Te TA ma F'); // read at confidence 2 of 100
      for (const phrase of ['MESSAGE', 'PRESIDENT OF THE UNITED STATES', 'regulations for the consular courts']) expect(pages[0].text).to.include(phrase);
    });

    // File names end in the receipt total in cents: ..._02423.jpg -> 24,23 (German receipts use a decimal comma).
    for (const file of listData('images', /^receipt_.*\.jpg$/)) {
      const cents = /_(\d+)\.jpg$/.exec(file)![1];
      const total = `${Number(cents.slice(0, -2))},${cents.slice(-2)}`;
      it(`finds the total ${total} on ${file}`, async () => {
        const pages = await reader.read({ document: readData(`images/${file}`), contentType: JPEG });
        expect(pages).to.have.length(1);
        expect(pages[0].method).to.equal('ocr');
        const text = pages[0].text;
        expect(text.includes(total) || text.includes(total.replace(',', '.')), text).to.equal(true);
      });
    }
  });
});
