import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { ExtractionWorkerCrashedError, ChildProcessDocumentReader } from '../../../adapters/extraction/index.js';
import { childPids, isAlive, rejection } from '../../support/extraction-processes.js';
import {
  listData,
  maxEventLoopLag,
  readData,
  readDataText,
  wordRecall,
} from '../../support/extraction-fixtures.js';

const PDF = 'application/pdf';
const JPEG = 'image/jpeg';

function allText(pages: ExtractedPage[]): string {
  return pages.map((page) => page.text).join('\n');
}

function expectIncreasingToOne(progress: number[]): void {
  expect(progress.length).to.be.greaterThan(0);
  for (let i = 1; i < progress.length; i++) expect(progress[i]).to.be.greaterThan(progress[i - 1]);
  expect(progress[0]).to.be.at.least(0);
  expect(progress.at(-1)).to.equal(1);
}

describe('ChildProcessDocumentReader (real documents)', function () {
  this.timeout(60_000);
  const reader = new ChildProcessDocumentReader();
  after(() => reader.close());

  describe('PDFs with a text layer', () => {
    it('reads a one-page Google Docs export', async () => {
      const bytes = readData('pdfs/google-doc-document.pdf');
      const size = bytes.byteLength;
      const pages = await reader.read({ bytes, contentType: PDF });
      expect(pages).to.have.length(1);
      expect(pages[0]).to.include({ page: 1, method: 'text' });
      expect(pages[0].text).to.include('Beautiful is better than ugly.');
      expect(pages[0].text).to.include('Explicit is better than implicit.');
      expect(bytes.byteLength, "the caller's buffer is not detached").to.equal(size);
    });

    it("leaves the caller's Node Buffer intact", async () => {
      const buffer = Buffer.from(readData('pdfs/google-doc-document.pdf'));
      const copy = Buffer.from(buffer);
      await reader.read({ bytes: buffer, contentType: PDF });
      expect(buffer.equals(copy)).to.equal(true);
    });

    it('reads an owner-password encrypted PDF that opens without a password', async () => {
      const pages = await reader.read({ bytes: readData('pdfs/dmca-summary-1998.pdf'), contentType: PDF });
      expect(pages.map((page) => page.page)).to.deep.equal(Array.from({ length: 18 }, (_, i) => i + 1));
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      expect(pages[0].text).to.include('THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998');
      expect(pages[1].text).to.include('TITLE I: WIPO TREATY IMPLEMENTATION');
      expect(allText(pages)).to.include('Circumvention of Technological Protection Measures');
    });

    it('parses a 117-page PDF off the event loop, reporting progress', async () => {
      const progress: number[] = [];
      const { result: pages, maxLagMs } = await maxEventLoopLag(() =>
        reader.read({
          bytes: readData('pdfs/GeoTopo-komprimiert.pdf'),
          contentType: PDF,
          onProgress: (fraction) => progress.push(fraction),
        }),
      );
      expect(pages).to.have.length(117);
      expect(pages.map((page) => page.page)).to.deep.equal(Array.from({ length: 117 }, (_, i) => i + 1));
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      expect(pages[0].text).to.include('Geometrie und Topologie');
      expect(maxLagMs, 'longest event-loop stall (ms)').to.be.below(200);
      expectIncreasingToOne(progress);
      expect(progress.length).to.be.greaterThan(20); // per page, not just "done"
    });

    it('joins words hyphenated across lines and collapses spaces', async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.addPage([400, 300]);
      const lines = ['The exam-', 'ple shows    how dehyphen-', 'ation works.', '', 'New   paragraph here.'];
      lines.forEach((line, i) => page.drawText(line, { x: 40, y: 250 - i * 20, size: 12, font }));
      const pages = await reader.read({ bytes: await doc.save(), contentType: PDF });
      expect(pages[0].method).to.equal('text');
      expect(pages[0].text).to.include('The example shows how dehyphenation works.');
      expect(pages[0].text).to.include('New paragraph here.');
    });

    it('keeps the page count when some pages are blank', async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([300, 300]).drawText('A page with enough text to skip OCR.', { x: 20, y: 150, size: 10, font });
      doc.addPage([300, 300]);
      const pages = await reader.read({ bytes: await doc.save(), contentType: PDF });
      expect(pages).to.have.length(2);
      expect(pages[0]).to.deep.equal({ page: 1, method: 'text', text: 'A page with enough text to skip OCR.' });
      expect(pages[1]).to.deep.equal({ page: 2, method: 'text', text: '' }); // nothing drawn: not rendered, not OCR'd
    });
  });

  describe('scanned PDFs (OCR)', () => {
    it('OCRs an image-only book page', async () => {
      const pages = await reader.read({ bytes: readData('pdfs/scanned-huckfinn-p22.pdf'), contentType: PDF });
      expect(pages).to.have.length(1);
      expect(pages[0].method).to.equal('ocr');
      for (const phrase of ['tip-toeing along a path', 'kitchen door', 'Miss Watson', 'Who dah?', 'listened some more']) {
        expect(pages[0].text).to.include(phrase);
      }
    });

    it('OCRs a scanned printout and reports progress within the page', async () => {
      const progress: number[] = [];
      const pages = await reader.read({
        bytes: readData('pdfs/scanned-epson-wikipedia-ocr.pdf'),
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

    it('rejects a PDF without any readable text', async () => {
      const doc = await PDFDocument.create();
      doc.addPage([300, 400]);
      const error = await rejection(reader.read({ bytes: await doc.save(), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The document contains no readable text');
    });
  });

  describe('unreadable PDFs', () => {
    for (const file of ['encrypted-libreoffice-openpassword.pdf', 'encrypted-skew-password.pdf']) {
      it(`explains that ${file} needs a password`, async () => {
        const error = await rejection(reader.read({ bytes: readData(`pdfs/${file}`), contentType: PDF }));
        expect(error).to.be.instanceOf(UnprocessableDocumentError);
        expect(error.message).to.match(/password/i);
      });
    }

    it('rejects a malformed PDF', async () => {
      const error = await rejection(reader.read({ bytes: readData('pdfs/malformed-invalid.pdf'), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file is not a valid PDF (it is damaged or truncated)');
    });

    it('rejects a truncated PDF', async () => {
      const bytes = readData('pdfs/GeoTopo-komprimiert.pdf');
      const error = await rejection(reader.read({ bytes: bytes.subarray(0, bytes.length / 2), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/not a valid PDF/);
    });
  });

  describe('JPEG photos and scans (OCR)', () => {
    it('reads the tesseract.js test page (>= 90% of ground-truth words)', async () => {
      const pages = await reader.read({ bytes: readData('images/tesseractjs_testocr.jpg'), contentType: JPEG });
      expect(pages).to.have.length(1);
      expect(pages[0]).to.include({ page: 1, method: 'ocr' });
      expect(wordRecall(readDataText('images/tesseractjs_testocr.gt.txt'), pages[0].text)).to.be.at.least(0.9);
    });

    for (const file of ['tesseractjs_simple.jpg', 'tesseractjs_simple-90.jpg']) {
      it(`reads "Tesseract.js" from ${file}`, async () => {
        const pages = await reader.read({ bytes: readData(`images/${file}`), contentType: 'image/jpg' });
        expect(pages[0].text).to.include('Tesseract.js');
      });
    }

    // File names end in the receipt total in cents: ..._02423.jpg -> 24,23 (German receipts use a decimal comma).
    for (const file of listData('images', /^receipt_.*\.jpg$/)) {
      const cents = /_(\d+)\.jpg$/.exec(file)![1];
      const total = `${Number(cents.slice(0, -2))},${cents.slice(-2)}`;
      it(`finds the total ${total} on ${file}`, async () => {
        const pages = await reader.read({ bytes: readData(`images/${file}`), contentType: JPEG });
        expect(pages).to.have.length(1);
        expect(pages[0].method).to.equal('ocr');
        const text = pages[0].text;
        expect(text.includes(total) || text.includes(total.replace(',', '.')), text).to.equal(true);
      });
    }

    it('rejects a photo without text', async () => {
      const canvas = createCanvas(400, 300);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#f4f0e8';
      ctx.fillRect(0, 0, 400, 300);
      const error = await rejection(reader.read({ bytes: canvas.toBuffer('image/jpeg'), contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The document contains no readable text');
    });

    it('rejects a JPEG that cannot be decoded', async () => {
      const bytes = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
      const error = await rejection(reader.read({ bytes, contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/could not be decoded/);
    });
  });

  describe('declared type checks', () => {
    it('rejects PDF bytes declared as image/jpeg', async () => {
      const error = await rejection(reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file content is not a JPEG image although it was declared as image/jpeg');
    });

    it('rejects JPEG bytes declared as application/pdf', async () => {
      const error = await rejection(reader.read({ bytes: readData('images/tesseractjs_simple.jpg'), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file content is not a PDF although it was declared as application/pdf');
    });

    it('rejects unsupported and empty files', async () => {
      const png = await rejection(reader.read({ bytes: readData('images/tesseractjs_simple.jpg'), contentType: 'image/png' }));
      expect(png).to.be.instanceOf(UnprocessableDocumentError);
      expect(png.message).to.match(/Unsupported file type "image\/png"/);
      const empty = await rejection(reader.read({ bytes: new Uint8Array(0), contentType: PDF }));
      expect(empty).to.be.instanceOf(UnprocessableDocumentError);
      expect(empty.message).to.match(/empty/);
    });

    it('accepts content-type parameters and case', async () => {
      const pages = await reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: 'Application/PDF; charset=binary' });
      expect(pages).to.have.length(1);
    });
  });

  it('queues concurrent documents and answers each with its own pages', async () => {
    const [doc, image, broken] = await Promise.allSettled([
      reader.read({ bytes: readData('pdfs/pdflatex-outline.pdf'), contentType: PDF }),
      reader.read({ bytes: readData('images/tesseractjs_simple.jpg'), contentType: JPEG }),
      reader.read({ bytes: readData('pdfs/malformed-invalid.pdf'), contentType: PDF }),
    ]);
    expect(doc.status === 'fulfilled' && doc.value.length).to.equal(4);
    expect(image.status === 'fulfilled' && image.value[0].text).to.include('Tesseract.js');
    expect(broken.status === 'rejected' && broken.reason).to.be.instanceOf(UnprocessableDocumentError);
  });
});

describe('ChildProcessDocumentReader (failures and lifecycle)', function () {
  this.timeout(60_000);

  it('survives a hard crash of a child (SIGSEGV), rejects only that document, and replaces the child', async () => {
    const marker = 'CRASH-THE-EXTRACTION-CHILD';
    const reader = new ChildProcessDocumentReader({ crashOnMarkerForTests: marker });
    try {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([400, 200]).drawText('Harmless text before the marker.', { x: 20, y: 100, size: 10, font });
      // A valid PDF with the marker in a trailing comment (pdf.js ignores it; the child's test hook finds it).
      const poison = Buffer.concat([await doc.save(), Buffer.from(`\n%${marker}\n`)]);

      expect(await reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: PDF })).to.have.length(1);
      const error = await rejection(reader.read({ bytes: poison, contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionWorkerCrashedError);
      expect(error).not.to.be.instanceOf(UnprocessableDocumentError); // a server-side fault, not the user's document
      expect(error.message).to.match(/stopped unexpectedly: the process was killed by SIGSEGV/);

      // This process is still here, and the next documents (queued behind each other) get a fresh child.
      const [again, image] = await Promise.all([
        reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: PDF }),
        reader.read({ bytes: readData('images/tesseractjs_simple.jpg'), contentType: JPEG }),
      ]);
      expect(again[0].text).to.include('Beautiful is better than ugly.');
      expect(image[0].text).to.include('Tesseract.js');
    } finally {
      await reader.close();
    }
  });

  it('rejects documents whose child crashes, and replaces the child', async () => {
    // A 4 MB heap cannot even load the extraction code: a deterministic out-of-memory crash on every start.
    const reader = new ChildProcessDocumentReader({ maxMemoryMb: 4 });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await rejection(reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: PDF }));
        expect(error).to.be.instanceOf(ExtractionWorkerCrashedError);
        expect(error.message, error.message).to.match(/ran out of memory/);
      }
    } finally {
      await reader.close();
    }
  });

  it('sends large documents to the child and leaves no child behind after close()', async () => {
    const reader = new ChildProcessDocumentReader();
    // ~40 MB: the text page, then a big incompressible attachment-like stream the parser skips over.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([400, 200]).drawText('A large document with a little text.', { x: 20, y: 100, size: 10, font });
    const filler = Buffer.alloc(40 * 1024 * 1024);
    for (let i = 0; i < filler.length; i += 4) filler.writeUInt32LE((i * 2654435761) >>> 0, i);
    doc.context.register(doc.context.stream(filler));
    const bytes = await doc.save({ useObjectStreams: false });
    expect(bytes.byteLength).to.be.greaterThan(40 * 1024 * 1024);
    const pages = await reader.read({ bytes, contentType: PDF });
    expect(pages[0].text).to.equal('A large document with a little text.');
    const pids = childPids();
    expect(pids.length).to.be.greaterThan(0);
    await reader.close();
    for (const pid of pids) expect(isAlive(pid), `child ${pid} after close()`).to.equal(false);
  });

  it('runs documents in parallel with a larger pool', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2 });
    try {
      const [a, b] = await Promise.all([
        reader.read({ bytes: readData('images/tesseractjs_simple.jpg'), contentType: JPEG }),
        reader.read({ bytes: readData('pdfs/latex-multicolumn.pdf'), contentType: PDF }),
      ]);
      expect(a[0].text).to.include('Tesseract.js');
      expect(b).to.have.length(3);
    } finally {
      await reader.close();
    }
  });

  it('rejects reads after close(), and running reads on close()', async () => {
    const reader = new ChildProcessDocumentReader();
    const running = rejection(reader.read({ bytes: readData('pdfs/scanned-epson-wikipedia-ocr.pdf'), contentType: PDF }));
    const queued = rejection(reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: PDF }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await reader.close();
    expect((await running).message).to.match(/closed/);
    expect((await queued).message).to.match(/closed/);
    expect((await rejection(reader.read({ bytes: readData('pdfs/google-doc-document.pdf'), contentType: PDF }))).message).to.match(/closed/);
  });
});
