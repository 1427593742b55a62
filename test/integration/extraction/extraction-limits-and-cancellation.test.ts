import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ReadCancelledError, UnprocessableDocumentError } from '../../../core/domain/errors.js';
import {
  ChildProcessDocumentReader,
  ExtractionMemoryLimitError,
  ExtractionTimeoutError,
  PDF_READERS,
} from '../../../adapters/extraction/index.js';
import { pagedTextPdf, textJpeg } from '../../support/generated-documents.js';
import { childPids, eventually, isAlive, rejection, scannedPages } from '../../support/extraction-processes.js';

const PDF = 'application/pdf';
const JPEG = 'image/jpeg';

// Documents generated here, so this suite runs on a lone clone too.
const PHOTO = textJpeg(['Tesseract.js'], { width: 320, height: 180, fontSize: 36, margin: 40 });
const textPages = (count: number) =>
  pagedTextPdf(Array.from({ length: count }, (_, i) => [`Page ${i + 1} of a generated report.`, 'It has a text layer, so no OCR is needed.']));
const ONE_PAGE = await textPages(1);
const FOUR_PAGES = await textPages(4);
const EIGHTEEN_PAGES = await textPages(18);

/** A text page, then `blank` pages with nothing drawn, then `scanned` copies of a scanned page. */
async function mixedPdf(blank: number, scanned: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 300]).drawText('A first page with enough text to skip OCR.', { x: 20, y: 150, size: 10, font });
  for (let i = 0; i < blank; i++) doc.addPage([595, 842]);
  const scan = await PDFDocument.load(await scannedPages(1));
  for (const page of await doc.copyPages(scan, Array(scanned).fill(0))) doc.addPage(page);
  return doc.save();
}

/** Temporary document files the readers of this process left behind. */
function leftoverDocumentFiles(): string[] {
  return fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith(`doc-chat-extraction-${process.pid}-`))
    .flatMap((dir) => fs.readdirSync(path.join(os.tmpdir(), dir)));
}

describe('ChildProcessDocumentReader (limits)', function () {
  this.timeout(90_000);

  it('fails a document over its time budget (scaled to its pages), kills its child, and keeps working with a new one', async () => {
    // 40 scanned pages (one range: fewer than the default 50 a range) need 16-18 s of OCR on a 2-core machine, twice
    // 6 s + 40 x 50 ms (with 15 s the margin was under a second, and a lone-clone run read them in time); once the OCR
    // engine is up (the photo), no single page needs 6 s.
    const reader = new ChildProcessDocumentReader({ pageTimeoutMs: 6_000, msPerPage: 50 });
    try {
      await reader.read({ document: PHOTO, contentType: JPEG });
      const error = await rejection(reader.read({ document: await scannedPages(40), contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionTimeoutError);
      expect(error).to.be.instanceOf(UnprocessableDocumentError);
      expect(error.message).to.match(
        /40 pages took longer than its time budget of 8 seconds \(EXTRACTION_PAGE_TIMEOUT_MS=6000 \+ 40 pages × EXTRACTION_MS_PER_PAGE=50\)/,
      );
      expect(childPids(), 'the child was killed').to.have.length(0);

      const pages = await reader.read({ document: PHOTO, contentType: JPEG });
      expect(pages[0].text).to.include('Tesseract.js');
    } finally {
      await reader.close();
    }
  });

  it('fails a document read in page ranges when a range is over its share of the time budget', async () => {
    // 100 scanned pages are read in two ranges of the default 50 pages; the first alone needs ~20 s of OCR, over
    // twice 6 s + 50 x 50 ms.
    const reader = new ChildProcessDocumentReader({ pageTimeoutMs: 6_000, msPerPage: 50 });
    try {
      await reader.read({ document: PHOTO, contentType: JPEG });
      const error = await rejection(reader.read({ document: await scannedPages(100), contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionTimeoutError);
      expect(error.message).to.match(
        /^Reading pages 1-50 of the document took longer than their time budget of 8.5 seconds \(EXTRACTION_PAGE_TIMEOUT_MS=6000 \+ 50 pages × EXTRACTION_MS_PER_PAGE=50\)/,
      );
      expect(childPids(), 'the child was killed').to.have.length(0);
    } finally {
      await reader.close();
    }
  });

  it('fails a document whose page takes longer than the page limit', async () => {
    // Opening a scan and OCR-ing its first page (render at 300 dpi, start the OCR engine) takes well over 300 ms.
    const reader = new ChildProcessDocumentReader({ pageTimeoutMs: 300, msPerPage: 60_000 });
    try {
      const error = await rejection(reader.read({ document: await scannedPages(1), contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionTimeoutError);
      expect(error.message).to.match(/^Reading page 1 took longer than 300 ms, the limit per page \(EXTRACTION_PAGE_TIMEOUT_MS=300\)/);
    } finally {
      await reader.close();
    }
  });

  // What a PDF ends as (refused, blank, OCR'd, skipped) does not depend on the PDF reader (PDF_READER).
  for (const pdfReader of PDF_READERS) describe(`PDF outcomes, PDF_READER=${pdfReader}`, () => {
    it('refuses a PDF with more pages than the page limit, naming the limit', async () => {
      const reader = new ChildProcessDocumentReader({ maxPages: 17, pdfReader });
      try {
        const error = await rejection(reader.read({ document: EIGHTEEN_PAGES, contentType: PDF }));
        expect(error).to.be.instanceOf(UnprocessableDocumentError);
        expect(error.message).to.match(/^The document has 18 pages; the limit is 17 pages per document \(MAX_DOCUMENT_PAGES\)/);
        expect(await reader.read({ document: FOUR_PAGES, contentType: PDF })).to.have.length(4);
      } finally {
        await reader.close();
      }
    });

    it('skips blank pages without OCR, and returns scanned pages past the OCR limit as ocr-skipped', async () => {
      // Were blank pages rendered and OCR'd, 400 of them would take minutes and use up the OCR limit of 1.
      const reader = new ChildProcessDocumentReader({ maxOcrPages: 1, pdfReader });
      try {
        const pages = await reader.read({ document: await mixedPdf(400, 2), contentType: PDF });
        expect(pages).to.have.length(403);
        expect(pages[0]).to.include({ page: 1, method: 'text' });
        expect(pages.slice(1, 401).every((page) => page.method === 'text' && page.text === '')).to.equal(true);
        expect(pages[401]).to.include({ page: 402, method: 'ocr' });
        expect(pages[401].text).to.include('tip-toeing');
        expect(pages[402]).to.deep.equal({ page: 403, method: 'ocr-skipped', text: '' });
      } finally {
        await reader.close();
      }
    });

    it('says when a document without text had scanned pages past the OCR limit', async () => {
      // Drawn shapes without any text: the first page is OCR'd (and reads nothing), the next two are skipped.
      const doc = await PDFDocument.create();
      for (let i = 0; i < 3; i++) doc.addPage([300, 300]).drawRectangle({ x: 50, y: 50, width: 200, height: 120 });
      const reader = new ChildProcessDocumentReader({ maxOcrPages: 1, pdfReader });
      try {
        const error = await rejection(reader.read({ document: await doc.save(), contentType: PDF }));
        expect(error).to.be.instanceOf(UnprocessableDocumentError);
        expect(error.message).to.equal(
          "The document contains no readable text in its first 1 scanned pages; 2 more were not OCR'd (at most 1 per document, MAX_OCR_PAGES)",
        );
      } finally {
        await reader.close();
      }
    });

    it('ends a document of only blank pages quickly, as having no readable text', async () => {
      const doc = await PDFDocument.create();
      for (let i = 0; i < 2_000; i++) doc.addPage([595, 842]);
      const reader = new ChildProcessDocumentReader({ pdfReader });
      try {
        const error = await rejection(reader.read({ document: await doc.save(), contentType: PDF }));
        expect(error).to.be.instanceOf(UnprocessableDocumentError);
        expect(error.message).to.equal('The document contains no readable text');
      } finally {
        await reader.close();
      }
    });
  });

  it('fails a document whose extraction process grows past the memory limit, naming the limit', async () => {
    // A child's resident size is well above 60 MB once pdf.js is loaded; its V8 heap stays far below.
    const reader = new ChildProcessDocumentReader({ maxMemoryMb: 60 });
    try {
      const error = await rejection(reader.read({ document: ONE_PAGE, contentType: PDF }));
      expect(error).to.be.instanceOf(ExtractionMemoryLimitError);
      expect(error.message).to.match(/more than 60 MB of memory, the limit per extraction process \(EXTRACTION_MAX_MEMORY_MB=60\)/);
    } finally {
      await reader.close();
    }
  });
});

describe('ChildProcessDocumentReader (cancellation and process lifecycle)', function () {
  this.timeout(90_000);

  it('rejects at once with ReadCancelledError when the signal is already aborted, without starting a child', async () => {
    const reader = new ChildProcessDocumentReader();
    try {
      const error = await rejection(reader.read({ document: ONE_PAGE, contentType: PDF, signal: AbortSignal.abort() }));
      expect(error).to.be.instanceOf(ReadCancelledError);
      expect(childPids()).to.have.length(0);
    } finally {
      await reader.close();
    }
  });

  it('stops a running extraction when its signal is aborted: the child is killed, the next document gets a new one', async () => {
    const reader = new ChildProcessDocumentReader();
    try {
      const controller = new AbortController();
      let progressed!: () => void;
      const running = new Promise<void>((resolve) => (progressed = resolve));
      const reading = rejection(
        reader.read({ document: await scannedPages(20), contentType: PDF, signal: controller.signal, onProgress: (f) => f > 0 && progressed() }),
      );
      await running; // OCR of the first page is under way
      const [pid] = childPids();
      expect(pid).to.be.a('number');
      const aborted = Date.now();
      controller.abort();
      expect(await reading).to.be.instanceOf(ReadCancelledError);
      expect(Date.now() - aborted, 'rejected at once').to.be.below(1_000);
      await eventually(() => !isAlive(pid), 'the extraction child is gone');

      const pages = await reader.read({ document: ONE_PAGE, contentType: PDF });
      expect(pages[0].text).to.include('Page 1 of a generated report.');
      expect(childPids()).to.not.include(pid);
      // 15 s, not the 5 of the other waits: one fresh-clone CI run (stop 34) saw a file still there after 5 s.
      await eventually(() => leftoverDocumentFiles().length === 0, 'the temporary document files are deleted', 15_000);
    } finally {
      await reader.close();
    }
  });

  it('never starts a queued document whose signal is aborted, and leaves the running one alone', async () => {
    const reader = new ChildProcessDocumentReader();
    try {
      const controller = new AbortController();
      const first = reader.read({ document: EIGHTEEN_PAGES, contentType: PDF });
      let queuedProgress = 0;
      const queued = rejection(
        reader.read({ document: ONE_PAGE, contentType: PDF, signal: controller.signal, onProgress: () => queuedProgress++ }),
      );
      controller.abort();
      expect(await queued).to.be.instanceOf(ReadCancelledError);
      expect(await first).to.have.length(18);
      expect(queuedProgress, 'the queued document never started').to.equal(0);
    } finally {
      await reader.close();
    }
  });

  it('stops an idle child after idleMs and starts a new one for the next document', async () => {
    const reader = new ChildProcessDocumentReader({ idleMs: 300 });
    try {
      await reader.read({ document: ONE_PAGE, contentType: PDF });
      const [pid] = childPids();
      expect(pid).to.be.a('number');
      await eventually(() => !isAlive(pid), 'the idle child exited');
      expect(await reader.read({ document: ONE_PAGE, contentType: PDF })).to.have.length(1);
    } finally {
      await reader.close();
    }
  });

  it('replaces a child that has read recycleAfterPages pages once its document is done', async () => {
    const reader = new ChildProcessDocumentReader({ recycleAfterPages: 10 });
    try {
      const progress: number[] = [];
      const pages = await reader.read({ document: EIGHTEEN_PAGES, contentType: PDF, onProgress: (f) => progress.push(f) });
      expect(pages).to.have.length(18); // the document itself is read to its end
      expect(progress.at(-1)).to.equal(1);
      await eventually(() => childPids().length === 0, 'the worn child exited');
      expect(await reader.read({ document: ONE_PAGE, contentType: PDF })).to.have.length(1);
    } finally {
      await reader.close();
    }
  });
});
