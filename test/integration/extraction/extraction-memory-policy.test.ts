import fs from 'node:fs';
import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ChildProcessDocumentReader, DEFAULT_EXTRACTION_SETTINGS } from '../../../adapters/extraction/child-process-document-reader.js';
import { cleanupPolicy } from '../../../adapters/extraction/cleanup-policy.js';
import { DocumentExtractor } from '../../../adapters/extraction/document-extractor.js';
import { ExtractionProcess } from '../../../adapters/extraction/extraction-process.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { childPids } from '../../support/extraction-processes.js';
import { textJpeg, textPng } from '../../support/generated-documents.js';

const MB = 1024 * 1024;

/** Pages in order: a string is a text page (a text layer), an array of lines is a scanned page (only a picture). */
async function mixedPdf(pages: (string | string[])[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    const page = doc.addPage([612, 792]);
    if (typeof content === 'string') page.drawText(content, { x: 60, y: 720, size: 11, font });
    else page.drawImage(await doc.embedPng(textPng(content)), { x: 0, y: 0, width: 612, height: 792 });
  }
  return doc.save();
}

/** An idle extraction process (a real child), with a 300 MB limit. */
function startExtractionProcess(): ExtractionProcess {
  const limits = { pageTimeoutMs: 10_000, msPerPage: 1_000, maxMemoryMb: 300, recycleAfterPages: 100, idleMs: 60_000 };
  const startData = { settings: DEFAULT_EXTRACTION_SETTINGS, cleanup: { cleanupAboveHeapMb: 150, collectAboveRssMb: 75 }, niceness: 0, scheduling: 'nice' as const };
  return new ExtractionProcess(startData, limits, { onFree: () => {}, onExit: () => {} });
}

const textPage = (n: number) => `Page ${n} of a long report on quarterly revenue and operating margins.`;

describe('extraction memory policy (issue 18: cost per page flat in the length of the document)', function () {
  this.timeout(120_000);

  it('asks to drop the caches on the V8 heap size, not on the resident size (which native memory like OCR fills)', () => {
    global.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    // A threshold between the heap and the resident size: an RSS-based trigger would fire, a heap-based one must not.
    const between = Math.floor((heapUsed + rss) / 2 / MB);
    expect(rss / MB).to.be.above(between);
    expect(cleanupPolicy({ cleanupAboveHeapMb: between, collectAboveRssMb: 1_000_000 }).shouldCleanUp!()).to.equal(false);
    expect(cleanupPolicy({ cleanupAboveHeapMb: 0, collectAboveRssMb: 1_000_000 }).shouldCleanUp!()).to.equal(true);
  });

  it('drops the caches at most every 25 pages, however often it is asked to', async () => {
    const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
    const bytes = await mixedPdf(Array.from({ length: 60 }, (_, i) => textPage(i + 1)));
    const cleanedAfter: number[] = [];
    let read = 0;
    await extractor.extract(bytes, 'pdf', {
      onPage: () => read++,
      onProgress: () => {},
      shouldCleanUp: () => true,
      onCleanedUp: () => cleanedAfter.push(read),
    });
    await extractor.close();
    expect(read).to.equal(60);
    // Before issue 18 this was every page once the process was large: 60 cleanups, each re-parsing the fonts.
    expect(cleanedAfter).to.deep.equal([25, 50]);
  });

  it('stops the OCR engine after 50 pages without OCR and after the document, and starts it again when a later page needs it', async () => {
    const extractor = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
    const scan = ['Scanned page of the annual report', 'Revenue rose in every region'];
    const pages = [scan, ...Array.from({ length: 55 }, (_, i) => textPage(i + 2)), scan];
    const running = new Map<number, boolean>();
    const read: ExtractedPage[] = [];
    await extractor.extract(await mixedPdf(pages), 'pdf', {
      onPage: (page) => {
        read.push(page);
        running.set(page.page, extractor.ocr.running);
      },
      onProgress: () => {},
    });
    expect(read.map((page) => page.method)).to.deep.equal(['ocr', ...Array(55).fill('text'), 'ocr']);
    expect(read[0].text).to.match(/Revenue rose/);
    expect(read[56].text).to.match(/Revenue rose/); // read by a restarted engine
    expect(running.get(1)).to.equal(true);
    expect(running.get(50)).to.equal(true);
    expect(running.get(51)).to.equal(false); // 50 text pages after the scan
    expect(running.get(57)).to.equal(true);
    expect(extractor.ocr.running).to.equal(false); // stopped once the document is read
    await extractor.close();
  });

  it('loads @napi-rs/canvas and pdf.js into an extraction process only for a photo, not for PDFs read and OCR\'d with PDFium', async () => {
    // A memory limit high enough that the child is not recycled for its size after the photo (canvas, pdf.js and OCR
    // can leave it above a quarter of the default limit): this test asks which process read it, not when it is replaced.
    const reader = new ChildProcessDocumentReader({ poolSize: 1, idleMs: 60_000, maxMemoryMb: 4_096 });
    const before = new Set(childPids());
    // Skia's native library, which @napi-rs/canvas maps; pdf.js is imported only beside it (pdf-page-raster.ts, raster.ts).
    const canvasLoaded = (pid: number) => fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('skia');
    try {
      const pages = await reader.read({ document: await mixedPdf([textPage(1), ['Scanned page of the annual report', 'Revenue rose in every region']]), contentType: 'application/pdf' });
      expect(pages.map((page) => page.method)).to.deep.equal(['text', 'ocr']);
      const [child] = childPids().filter((pid) => !before.has(pid));
      expect(canvasLoaded(child), 'after a PDF').to.equal(false);
      const photo = await reader.read({ document: textJpeg(['Receipt total 12.50']), contentType: 'image/jpeg' });
      expect(photo[0].text).to.match(/12\.50/);
      expect(childPids().filter((pid) => !before.has(pid)), 'the same process read the photo').to.deep.equal([child]);
      expect(canvasLoaded(child), 'after a photo').to.equal(true);
    } finally {
      await reader.close();
    }
  });

  it('starts extraction processes with a young generation of 8 MB semi-spaces, the heap limit, gc exposed and glibc malloc giving memory back', async () => {
    const child = startExtractionProcess();
    try {
      // What the kernel started: node's own arguments come before the entry file.
      const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      const nodeArgs = argv.slice(1, argv.findIndex((arg) => /extraction-worker\.m?js$/.test(arg)));
      expect(nodeArgs).to.have.members(['--max-old-space-size=300', '--max-semi-space-size=8', '--expose-gc']);
      const environment = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      expect(environment).to.include.members(['MALLOC_ARENA_MAX=2', 'MALLOC_TRIM_THRESHOLD_=131072', 'MALLOC_MMAP_THRESHOLD_=131072']);
    } finally {
      child.stop(new Error('test over'));
      await child.exited;
    }
  });

  it("leaves a glibc malloc setting given in the server's environment as it is", async () => {
    const given = process.env.MALLOC_ARENA_MAX;
    process.env.MALLOC_ARENA_MAX = '4';
    const child = startExtractionProcess();
    try {
      const environment = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      expect(environment).to.include('MALLOC_ARENA_MAX=4');
      expect(environment).to.not.include('MALLOC_ARENA_MAX=2');
    } finally {
      if (given === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = given;
      child.stop(new Error('test over'));
      await child.exited;
    }
  });
});
