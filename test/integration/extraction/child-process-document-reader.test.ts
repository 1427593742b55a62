import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { ReadCancelledError, UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { ExtractionWorkerCrashedError, ChildProcessDocumentReader, PDF_READERS } from '../../../adapters/extraction/index.js';
import { schedulingPolicy } from '../../../adapters/extraction/background-priority.js';
import { childPids, isAlive, scannedPages } from '../../support/extraction-processes.js';
import { eventLoopBusyShare, wordRecall, withExifOrientation } from '../../support/extraction-fixtures.js';
import {
  MALFORMED_PDF,
  pagedTextPdf,
  readFixture,
  scannedPdf,
  sidewaysTextJpeg,
  textJpeg,
  truncatedPdf,
} from '../../support/generated-documents.js';
import { allText, expectIncreasingToOne, rejection } from './reader-assertions.js';

const PDF = 'application/pdf';
const JPEG = 'image/jpeg';

// Documents generated here, so this runs on a lone clone; the real-document corpus: *.real-documents.test.ts.
const ZEN = ['Beautiful is better than ugly.', 'Explicit is better than implicit.', 'Simple is better than complex.'];
const ONE_PAGE = await pagedTextPdf([ZEN]);
const SCAN_LINES = ['Huckleberry Finn went tip-toeing along a path', 'amongst the trees back towards the end of', "the widow's garden. Miss Watson's Jim was", 'setting in the kitchen door; we could see him', 'pretty clear. He listened some more.'];
const SCANNED_PAGE = await scannedPdf([SCAN_LINES]);
const SIMPLE_WORD = { width: 320, height: 180, fontSize: 36, margin: 40 };
const SIMPLE_JPEG = textJpeg(['Tesseract.js'], SIMPLE_WORD);
const TEST_PAGE_LINES = [
  'This is a lot of 12 point text to test the',
  'ocr code and see if it works on all types',
  'of file format.',
  'The quick brown dog jumped over the',
  'lazy fox. The quick brown dog jumped',
  'over the lazy fox.',
];

// Once per PDF reader (PDF_READER): every generated document ends the same way with either.
for (const pdfReader of PDF_READERS) describe(`ChildProcessDocumentReader (generated documents, PDF_READER=${pdfReader})`, function () {
  this.timeout(60_000);
  const reader = new ChildProcessDocumentReader({ pdfReader });
  after(() => reader.close());

  describe('PDFs with a text layer', () => {
    it('reads a one-page PDF', async () => {
      const bytes = ONE_PAGE.slice();
      const size = bytes.byteLength;
      const pages = await reader.read({ document: bytes, contentType: PDF });
      expect(pages).to.have.length(1);
      expect(pages[0]).to.include({ page: 1, method: 'text' });
      expect(pages[0].text).to.include('Beautiful is better than ugly.');
      expect(pages[0].text).to.include('Explicit is better than implicit.');
      expect(bytes.byteLength, "the caller's buffer is not detached").to.equal(size);
    });

    it("leaves the caller's Node Buffer intact", async () => {
      const buffer = Buffer.from(ONE_PAGE);
      const copy = Buffer.from(buffer);
      await reader.read({ document: buffer, contentType: PDF });
      expect(buffer.equals(copy)).to.equal(true);
    });

    it('reads an owner-password encrypted PDF that opens without a password', async () => {
      const pages = await reader.read({ document: readFixture('encrypted-owner-password-only.pdf'), contentType: PDF });
      expect(pages.map((page) => page.page)).to.deep.equal([1, 2]);
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      expect(pages[0].text).to.include('Encrypted fixture, page one.');
      expect(pages[1].text).to.include('Encrypted fixture, page two.');
      expect(allText(pages)).to.include('Readers open it without asking for a password.');
    });

    it('parses a 120-page PDF off the event loop, reporting progress', async () => {
      // Each page's number in a sentence mid-page (a first or last line repeated on every page is a running header).
      const filler = Array(20).fill(ZEN.join(' '));
      const book = await pagedTextPdf(Array.from({ length: 120 }, (_, i) => [...filler, `This is page ${i + 1} of the generated book.`, ...filler]));
      const progress: number[] = [];
      const { result: pages, busyShare } = await eventLoopBusyShare(() =>
        reader.read({ document: book, contentType: PDF, onProgress: (fraction) => progress.push(fraction) }),
      );
      expect(pages.map((page) => page.page)).to.deep.equal(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(pages.every((page) => page.method === 'text')).to.equal(true);
      pages.forEach((page, i) => expect(page.text).to.include(`This is page ${i + 1} of the generated book.`));
      // Read on the event loop, the share is 1.0 with either PDF reader; read in the child, 0.05-0.25 here.
      expect(busyShare, 'share of the read the event loop was busy').to.be.below(0.5);
      expectIncreasingToOne(progress);
      expect(progress.length).to.be.greaterThan(20); // per page, not just "done"
    });

    it('joins words hyphenated across lines and collapses spaces', async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.addPage([400, 300]);
      const lines = ['The exam-', 'ple shows    how dehyphen-', 'ation works.', '', 'New   paragraph here.'];
      lines.forEach((line, i) => page.drawText(line, { x: 40, y: 250 - i * 20, size: 12, font }));
      const pages = await reader.read({ document: await doc.save(), contentType: PDF });
      expect(pages[0].method).to.equal('text');
      expect(pages[0].text).to.include('The example shows how dehyphenation works.');
      expect(pages[0].text).to.include('New paragraph here.');
    });

    it('keeps the page count when some pages are blank', async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([300, 300]).drawText('A page with enough text to skip OCR.', { x: 20, y: 150, size: 10, font });
      doc.addPage([300, 300]);
      const pages = await reader.read({ document: await doc.save(), contentType: PDF });
      expect(pages).to.have.length(2);
      expect(pages[0]).to.deep.equal({ page: 1, method: 'text', text: 'A page with enough text to skip OCR.' });
      expect(pages[1]).to.deep.equal({ page: 2, method: 'text', text: '' }); // nothing drawn: not rendered, not OCR'd
    });
  });

  describe('scanned PDFs (OCR)', () => {
    it('OCRs an image-only page and reports progress within the page', async () => {
      const progress: number[] = [];
      const pages = await reader.read({ document: SCANNED_PAGE, contentType: PDF, onProgress: (fraction) => progress.push(fraction) });
      expect(pages).to.have.length(1);
      expect(pages[0].method).to.equal('ocr');
      for (const phrase of ['tip-toeing along a path', 'kitchen door', 'Miss Watson', 'listened some more']) {
        expect(pages[0].text).to.include(phrase);
      }
      expect(wordRecall(SCAN_LINES.join('\n'), pages[0].text)).to.be.at.least(0.9);
      expectIncreasingToOne(progress);
      expect(progress.length).to.be.greaterThan(5);
    });

    it('rejects a PDF without any readable text', async () => {
      const doc = await PDFDocument.create();
      doc.addPage([300, 400]);
      const error = await rejection(reader.read({ document: await doc.save(), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The document contains no readable text');
    });
  });

  describe('unreadable PDFs', () => {
    it('explains that a PDF needs a password', async () => {
      const error = await rejection(reader.read({ document: readFixture('encrypted-user-password.pdf'), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/password/i);
    });

    it('rejects a malformed PDF', async () => {
      const error = await rejection(reader.read({ document: MALFORMED_PDF, contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file is not a valid PDF (it is damaged or truncated)');
    });

    it('rejects a truncated PDF', async () => {
      const error = await rejection(reader.read({ document: await truncatedPdf(), contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/not a valid PDF/);
    });
  });

  describe('JPEG photos and scans (OCR)', () => {
    it('reads a photographed page (>= 90% of its words)', async () => {
      const bytes = textJpeg(TEST_PAGE_LINES, { width: 640, height: 480, fontSize: 28, margin: 30 });
      const pages = await reader.read({ document: bytes, contentType: JPEG });
      expect(pages).to.have.length(1);
      expect(pages[0]).to.include({ page: 1, method: 'ocr' });
      expect(wordRecall(TEST_PAGE_LINES.join('\n'), pages[0].text)).to.be.at.least(0.9);
    });

    it('reads "Tesseract.js" from an upright photo and from one taken sideways (EXIF orientation 6)', async () => {
      const sideways = sidewaysTextJpeg(['Tesseract.js'], SIMPLE_WORD);
      for (const [name, bytes] of [['upright', SIMPLE_JPEG], ['sideways with EXIF', withExifOrientation(sideways, 6, 'MM')]] as const) {
        const pages = await reader.read({ document: bytes, contentType: 'image/jpg' });
        expect(pages[0].text, name).to.include('Tesseract.js');
      }
      // The same pixels without the EXIF tag stay sideways: the orientation is what made them readable.
      expect((await reader.read({ document: sideways, contentType: JPEG }))[0].text).not.to.include('Tesseract.js');
    });

    it('rejects a photo without text', async () => {
      const canvas = createCanvas(400, 300);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#f4f0e8';
      ctx.fillRect(0, 0, 400, 300);
      const error = await rejection(reader.read({ document: canvas.toBuffer('image/jpeg'), contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The document contains no readable text');
    });

    it('rejects a JPEG that cannot be decoded', async () => {
      const bytes = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
      const error = await rejection(reader.read({ document: bytes, contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(/could not be decoded/);
    });
  });

  describe('declared type checks', () => {
    it('rejects PDF bytes declared as image/jpeg', async () => {
      const error = await rejection(reader.read({ document: ONE_PAGE, contentType: JPEG }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file content is not a JPEG image although it was declared as image/jpeg');
    });

    it('rejects JPEG bytes declared as application/pdf', async () => {
      const error = await rejection(reader.read({ document: SIMPLE_JPEG, contentType: PDF }));
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.equal('The file content is not a PDF although it was declared as application/pdf');
    });

    it('rejects unsupported and empty files', async () => {
      const zip = await rejection(reader.read({ document: SIMPLE_JPEG, contentType: 'application/zip' }));
      expect(zip).to.be.instanceOf(UnprocessableDocumentError);
      expect(zip.message).to.match(/Unsupported file type "application\/zip"/);
      // PNG has a reader since issue 51 (uploads take it only with ACCEPTED_TYPES): a JPEG declared as one is refused.
      const png = await rejection(reader.read({ document: SIMPLE_JPEG, contentType: 'image/png' }));
      expect(png.message).to.equal('The file content is a JPEG image, not a PNG image, although it was declared as image/png');
      const empty = await rejection(reader.read({ document: new Uint8Array(0), contentType: PDF }));
      expect(empty).to.be.instanceOf(UnprocessableDocumentError);
      expect(empty.message).to.match(/empty/);
    });

    it('accepts content-type parameters and case', async () => {
      const pages = await reader.read({ document: ONE_PAGE, contentType: 'Application/PDF; charset=binary' });
      expect(pages).to.have.length(1);
    });
  });


  it('queues concurrent documents and answers each with its own pages', async () => {
    const [doc, image, broken] = await Promise.allSettled([
      reader.read({ document: await pagedTextPdf([['One'], ['Two'], ['Three'], ['Four']]), contentType: PDF }),
      reader.read({ document: SIMPLE_JPEG, contentType: JPEG }),
      reader.read({ document: MALFORMED_PDF, contentType: PDF }),
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

      expect(await reader.read({ document: ONE_PAGE, contentType: PDF })).to.have.length(1);
      const error = await rejection(reader.read({ document: poison, contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionWorkerCrashedError);
      expect(error).not.to.be.instanceOf(UnprocessableDocumentError); // a server-side fault, not the user's document
      expect(error.message).to.match(/stopped unexpectedly: the process was killed by SIGSEGV/);

      // This process is still here, and the next documents (queued behind each other) get a fresh child.
      const [again, image] = await Promise.all([
        reader.read({ document: ONE_PAGE, contentType: PDF }),
        reader.read({ document: SIMPLE_JPEG, contentType: JPEG }),
      ]);
      expect(again[0].text).to.include('Beautiful is better than ugly.');
      expect(image[0].text).to.include('Tesseract.js');
    } finally {
      await reader.close();
    }
  });

  it('reads a streamed document from its temporary file once copied; a cancelled copy stops and leaves no file', async () => {
    const reader = new ChildProcessDocumentReader();
    const files = () => {
      const dir = (reader as unknown as { tempDir?: string }).tempDir;
      return dir && fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };
    try {
      async function* pieces(bytes: Uint8Array) {
        for (let start = 0; start < bytes.length; start += 4096) yield bytes.slice(start, start + 4096);
      }
      const pages = await reader.read({ document: () => pieces(ONE_PAGE), contentType: PDF });
      expect(pages[0].text).to.include('Beautiful is better than ugly.');
      // A store that stalls half-way (a network mount, an object store that stopped answering).
      async function* stalls() {
        yield ONE_PAGE.slice(0, 100);
        await new Promise(() => {});
      }
      const controller = new AbortController();
      const reading = reader.read({ document: stalls, contentType: PDF, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(files(), 'the copy under way').to.have.length(1);
      controller.abort();
      expect(await rejection(reading)).to.be.instanceOf(ReadCancelledError);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(files(), 'temporary files left').to.deep.equal([]);
    } finally {
      await reader.close();
    }
  });

  it('rejects documents whose child runs out of memory, and replaces the child', async () => {
    // Every child this reader starts fills its V8 heap before the worker even loads (a module preloaded through
    // NODE_OPTIONS, which children inherit): a deterministic out-of-memory crash on every start, before the child could
    // report its size to the memory limit.
    const fill = 'const kept = []; for (;;) kept.push(new Array(1e6).fill(0));';
    const given = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `${given ?? ''} --import=data:text/javascript,${encodeURIComponent(fill)}`.trim();
    const reader = new ChildProcessDocumentReader({ maxMemoryMb: 64 });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await rejection(reader.read({ document: ONE_PAGE, contentType: PDF }));
        expect(error).to.be.instanceOf(ExtractionWorkerCrashedError);
        expect(error.message, error.message).to.match(/ran out of memory/);
      }
    } finally {
      if (given === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = given;
      await reader.close();
    }
    // Not the reader: a reader started now reads.
    const healthy = new ChildProcessDocumentReader();
    try {
      expect(await healthy.read({ document: ONE_PAGE, contentType: PDF })).to.have.length(1);
    } finally {
      await healthy.close();
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
    const pages = await reader.read({ document: bytes, contentType: PDF });
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
        reader.read({ document: SIMPLE_JPEG, contentType: JPEG }),
        reader.read({ document: await pagedTextPdf([['Left column'], ['Right column'], ['References']]), contentType: PDF }),
      ]);
      expect(a[0].text).to.include('Tesseract.js');
      expect(b).to.have.length(3);
    } finally {
      await reader.close();
    }
  });

  it('rejects reads after close(), and running reads on close()', async () => {
    const reader = new ChildProcessDocumentReader();
    const running = rejection(reader.read({ document: SCANNED_PAGE, contentType: PDF }));
    const queued = rejection(reader.read({ document: ONE_PAGE, contentType: PDF }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await reader.close();
    expect((await running).message).to.match(/closed/);
    expect((await queued).message).to.match(/closed/);
    expect((await rejection(reader.read({ document: ONE_PAGE, contentType: PDF }))).message).to.match(/closed/);
  });
});

describe('ChildProcessDocumentReader CPU priority', function () {
  this.timeout(60_000);

  /** Every thread of `pid`: its niceness and scheduling policy (Linux applies both per thread). */
  const threadsOf = (pid: number) =>
    fs.readdirSync(`/proc/${pid}/task`).map((tid) => ({ tid, niceness: os.getPriority(Number(tid)), policy: schedulingPolicy(pid, Number(tid)) }));

  it('runs every thread of its children at the niceness asked above this process (0 keeps it), refusing values outside 0-19', async () => {
    const mine = os.getPriority();
    for (const niceness of [7, 0]) {
      const before = new Set(childPids());
      const reader = new ChildProcessDocumentReader({ niceness, scheduling: 'nice' });
      try {
        await reader.read({ document: ONE_PAGE, contentType: PDF });
        const started = childPids().filter((pid) => !before.has(pid));
        expect(started).to.have.length(1);
        const threads = threadsOf(started[0]);
        expect(threads.length, 'V8 and libuv start threads before our code runs').to.be.greaterThan(1);
        for (const thread of threads) {
          expect(thread.niceness, `thread ${thread.tid} at niceness ${niceness}`).to.equal(Math.min(19, mine + niceness));
          expect(thread.policy, `thread ${thread.tid}`).to.equal('SCHED_OTHER');
        }
      } finally {
        await reader.close();
      }
    }
    expect(() => new ChildProcessDocumentReader({ niceness: 20 })).to.throw(RangeError, /0 to 19/);
    expect(() => new ChildProcessDocumentReader({ niceness: -1 })).to.throw(RangeError, /0 to 19/);
  });

  it('runs every thread of its children, including the OCR engine, under the idle scheduling policy when asked', async () => {
    const before = new Set(childPids());
    // A memory limit high enough that the child, grown by the OCR engine, is not recycled before it is looked at.
    const reader = new ChildProcessDocumentReader({ scheduling: 'idle', maxMemoryMb: 4096 });
    try {
      const pages = await reader.read({ document: await scannedPages(1), contentType: PDF });
      expect(pages[0].method, 'the OCR engine ran').to.equal('ocr');
      const started = childPids().filter((pid) => !before.has(pid));
      expect(started).to.have.length(1);
      const threads = threadsOf(started[0]);
      expect(threads.length).to.be.greaterThan(1);
      for (const thread of threads) expect(thread.policy, `thread ${thread.tid}`).to.equal('SCHED_IDLE');
      expect(schedulingPolicy(process.pid), 'this process keeps its own policy').to.equal('SCHED_OTHER');
    } finally {
      await reader.close();
    }
  });
});
