import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { ChildProcessPageRenderer, PDF_READERS } from '../../adapters/extraction/index.js';
import { readJpegHeader } from '../../adapters/extraction/jpeg-header.js';
import { withExifOrientation } from '../support/extraction-fixtures.js';
import { MALFORMED_PDF, pagedTextPdf, scannedPdf, sidewaysTextJpeg, textJpeg } from '../support/generated-documents.js';
import { pageRendererContract } from './page-renderer.contract.js';

const LINES = ['The first page of the document.', 'The second page, with other words.', 'Page three, the last of them.'];
const PDF = await pagedTextPdf(LINES.map((line) => [line]));
const OTHER_PDF = await pagedTextPdf([['Another document altogether.', 'With two lines.'], ['Its second page.']]);
const JPEG_LINE = 'Receipt total 42 dollars';
const JPEG = textJpeg([JPEG_LINE], { width: 640, height: 360, fontSize: 36, margin: 40 });

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

for (const pdfReader of PDF_READERS) describe(`ChildProcessPageRenderer (PDF_READER=${pdfReader})`, function () {
  this.timeout(60_000);
  const renderer = new ChildProcessPageRenderer({ pdfReader });
  after(() => renderer.close());

  pageRendererContract(`ChildProcessPageRenderer (${pdfReader === 'pdfium' ? 'PDFium' : 'pdf.js'} and @napi-rs/canvas in a child process)`, () => renderer, {
    pdf: { bytes: PDF, pages: 3, lines: LINES },
    otherPdf: OTHER_PDF,
    jpeg: JPEG,
    jpegLine: JPEG_LINE,
    malformedPdf: MALFORMED_PDF,
    timeoutMs: 60_000,
  });

  it('finds a line where it is drawn: one area, from its left margin, around its baseline', async () => {
    // pagedTextPdf draws 11-point Helvetica from x = 60, baseline y = 720 (from the bottom) of a 612 x 792 page.
    const areas = (await renderer.findText({ document: PDF, contentType: 'application/pdf', page: 2, text: LINES[1] }))!;
    expect(areas).to.have.length(1);
    const [{ x, y, width, height }] = areas;
    expect(x).to.be.closeTo(60 / 612, 0.005);
    expect(y).to.be.closeTo((792 - 720 - 11) / 792, 0.006);
    expect(y + height).to.be.closeTo((792 - 720) / 792, 0.006);
    expect(width).to.be.within(0.2, 0.4); // 34 characters of 11-point type: ~170 points
    // Part of the line: a shorter area from further right.
    const [part] = (await renderer.findText({ document: PDF, contentType: 'application/pdf', page: 2, text: 'with other words' }))!;
    expect(part.x).to.be.greaterThan(x + 0.1);
    expect(part.x + part.width).to.be.closeTo(x + width, 0.01);
  });

  it('finds a line on a scanned page and on a photo turned by EXIF, read again by OCR, where it is drawn', async () => {
    // scannedPdf draws 40-pixel type from (100, 100), a line every 60 pixels, on a 1275 x 1650 picture of the page.
    const lines = ['The first line of this scan.', 'The second line of the scanned page.'];
    const scanned = await scannedPdf([lines]);
    const areas = (await renderer.findText({ document: scanned, contentType: 'application/pdf', page: 1, text: lines[1] }))!;
    expect(areas).to.have.length(1);
    expect(areas[0].x).to.be.closeTo(100 / 1275, 0.01);
    expect(areas[0].y).to.be.closeTo(160 / 1650, 0.01);
    expect(await renderer.findText({ document: scanned, contentType: 'application/pdf', page: 1, text: 'Words this scan never had in it' })).to.deep.equal([]);
    // Stored turned a quarter, EXIF orientation 6: the area is of the upright photo (640 x 360, type from (40, 40)).
    const sideways = withExifOrientation(sidewaysTextJpeg([JPEG_LINE], { width: 640, height: 360, fontSize: 36, margin: 40 }), 6, 'II');
    const [onPhoto] = (await renderer.findText({ document: sideways, contentType: 'image/jpeg', page: 1, text: JPEG_LINE }))!;
    expect(onPhoto.x).to.be.closeTo(40 / 640, 0.02);
    expect(onPhoto.y).to.be.closeTo(40 / 360, 0.03);
    expect(onPhoto.width).to.be.within(0.4, 0.9);
  });

  it('draws a PDF page as PNG with its longest side at the bound, and a photo upright (EXIF) as JPEG, never enlarged', async () => {
    const page = (await renderer.render({ document: PDF, contentType: 'application/pdf', page: 2, maxSide: 1000 }))!;
    expect(page.contentType).to.equal('image/png');
    expect(pngSize(page.bytes)).to.deep.equal({ width: 773, height: 1000 }); // US letter, 612 x 792 points
    // Stored turned a quarter (640 x 360 upright), EXIF orientation 6: shown 640 wide, 360 high.
    const sideways = withExifOrientation(sidewaysTextJpeg(['Receipt'], { width: 640, height: 360, fontSize: 48, margin: 40 }), 6, 'II');
    const photo = (await renderer.render({ document: sideways, contentType: 'image/jpeg', page: 1, maxSide: 1600 }))!;
    expect(photo.contentType).to.equal('image/jpeg');
    expect(readJpegHeader(photo.bytes)).to.include({ width: 640, height: 360 });
    const bounded = (await renderer.render({ document: sideways, contentType: 'image/jpeg', page: 1, maxSide: 320 }))!;
    expect(readJpegHeader(bounded.bytes)).to.include({ width: 320, height: 180 });
  });
});

describe('ChildProcessPageRenderer', function () {
  this.timeout(60_000);
  const renderer = new ChildProcessPageRenderer();
  after(() => renderer.close());

  it('fails one request when its child dies, and starts a fresh child for the next', async () => {
    await renderer.render({ document: PDF, contentType: 'application/pdf', page: 1, maxSide: 400 });
    const child = (renderer as unknown as { child: ChildProcess }).child;
    const pending = renderer.render({ document: PDF, contentType: 'application/pdf', page: 2, maxSide: 1600 });
    child.kill('SIGKILL');
    const error = await pending.then(() => null, (e: unknown) => e);
    // The kill may land after the page was sent back; if it did not, the request fails with the reason.
    if (error) expect(String(error)).to.match(/page renderer stopped/);
    expect(await renderer.render({ document: PDF, contentType: 'application/pdf', page: 3, maxSide: 400 })).to.not.equal(null);
  });

  it('reads a document named by its content once for the pages asked for in turn; one not named, for every page', async () => {
    const reads = new Map<Uint8Array, number>();
    const counted = (bytes: Uint8Array) => async function* () {
      reads.set(bytes, (reads.get(bytes) ?? 0) + 1);
      yield bytes;
    };
    for (const page of [1, 2, 3, 1]) {
      expect(await renderer.render({ document: counted(PDF), contentKey: 'three-pages', contentType: 'application/pdf', page, maxSide: 300 })).to.not.equal(null);
      expect(await renderer.render({ document: counted(OTHER_PDF), contentType: 'application/pdf', page: 1, maxSide: 300 })).to.not.equal(null);
    }
    expect(reads.get(PDF)).to.equal(1);
    expect(reads.get(OTHER_PDF)).to.equal(4);
  });

  it('keeps the copies of the most recently viewed documents only, and deletes them all once idle', async () => {
    const resting = new ChildProcessPageRenderer({ keptDocuments: 2, idleMs: 3_000 }); // long enough not to rest between views under load
    const files = () => {
      const dir = (resting as unknown as { tempDir?: string }).tempDir;
      return dir && fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
    };
    let reads = 0;
    const view = (bytes: Uint8Array, contentKey: string) =>
      resting.render({ document: async function* () { reads++; yield bytes; }, contentKey, contentType: 'application/pdf', page: 1, maxSide: 200 });
    try {
      await view(PDF, 'a');
      await view(OTHER_PDF, 'b');
      await view(PDF, 'a'); // now b is the least recently viewed
      await view(await pagedTextPdf([['A third document.']]), 'c');
      expect(files()).to.equal(2);
      expect(reads).to.equal(3);
      await view(PDF, 'a');
      expect(reads, 'a was kept').to.equal(3);
      await view(OTHER_PDF, 'b');
      expect(reads, 'b was let go').to.equal(4);
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(files()).to.equal(0);
      expect((resting as unknown as { child?: ChildProcess }).child).to.equal(undefined);
      await view(PDF, 'a');
      expect(reads, 'read again after the rest').to.equal(5);
    } finally {
      await resting.close();
    }
  });

  it('lets go of a copy not viewed for its idle time while other documents are viewed (one deleted meanwhile is not kept on)', async () => {
    const reading = new ChildProcessPageRenderer({ keptDocuments: 2, idleMs: 1_500 });
    const reads = { a: 0, b: 0 };
    const view = (bytes: Uint8Array, contentKey: 'a' | 'b') =>
      reading.render({ document: async function* () { reads[contentKey]++; yield bytes; }, contentKey, contentType: 'application/pdf', page: 1, maxSide: 200 });
    try {
      await view(PDF, 'a');
      const started = performance.now();
      while (performance.now() - started < 2_000) {
        await view(OTHER_PDF, 'b');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await view(PDF, 'a');
      expect(reads.a, 'a was read again').to.equal(2);
    } finally {
      await reading.close();
    }
  });

  it('draws waiting page images before passage searches, and takes the people asking in turns', async () => {
    const renderer = new ChildProcessPageRenderer();
    try {
      // Alice looks for passages on three scanned pages (each read by OCR again: a second or more), then Bob asks for a
      // page image and Carol looks for a passage on a text page, while Alice's first search runs.
      const pages = [['The first scanned page of Alice.'], ['The second scanned page of Alice.'], ['The third scanned page of Alice.']];
      const scanned = await scannedPdf(pages);
      const done: string[] = [];
      const track = (name: string, work: Promise<unknown>) => work.then(() => void done.push(name));
      const aliceFinds = (page: number) =>
        renderer.findText({ document: scanned, contentType: 'application/pdf', page, text: pages[page - 1][0], requestedBy: 'alice' });
      await Promise.all([
        track('alice 1', aliceFinds(1)),
        track('alice 2', aliceFinds(2)),
        track('alice 3', aliceFinds(3)),
        track('bob image', renderer.render({ document: PDF, contentType: 'application/pdf', page: 1, maxSide: 400, requestedBy: 'bob' })),
        track('carol', renderer.findText({ document: PDF, contentType: 'application/pdf', page: 2, text: LINES[1], requestedBy: 'carol' })),
      ]);
      // In arrival order Bob and Carol would wait for all three of Alice's searches.
      expect(done).to.deep.equal(['alice 1', 'bob image', 'alice 2', 'carol', 'alice 3']);
    } finally {
      await renderer.close();
    }
  });

  it('gives up on a page that takes longer than its time limit, and recovers', async () => {
    const hurried = new ChildProcessPageRenderer({ timeoutMs: 1 });
    try {
      const error = await hurried.render({ document: PDF, contentType: 'application/pdf', page: 1, maxSide: 1600 }).then(() => null, (e: unknown) => e);
      expect(String(error)).to.match(/took longer than 1 ms/);
    } finally {
      await hurried.close();
    }
  });
});
