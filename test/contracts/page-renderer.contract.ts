import { expect } from 'chai';
import { NotFoundError, UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { PageRenderer } from '../../core/ports/page-renderer.js';

export interface PageRendererFixtures {
  /** A PDF of `pages` pages whose pages differ; `lines[i]` is a line of text drawn on page i + 1 only. */
  pdf: { bytes: Uint8Array; pages: number; lines: string[] };
  /** Another PDF of at least two pages, whose pages differ from `pdf`'s. */
  otherPdf: Uint8Array;
  /** A photographed page (JPEG)… */
  jpeg: Uint8Array;
  /** …and a line of text on it, at least 12 letters long. */
  jpegLine: string;
  /** A file that starts like a PDF and is none. */
  malformedPdf: Uint8Array;
  timeoutMs?: number;
}

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/**
 * What every PageRenderer must do (core/ports/page-renderer.ts): an image for each page that exists (a photo is its
 * page 1), null past the last page, the same image for the same request, a smaller one for a smaller bound, and
 * UnprocessableDocumentError for a file it cannot read or whose content contradicts its declared type, whether the
 * document comes as bytes or in pieces (as BlobStore.stream gives it, whose NotFoundError passes through). Requests
 * naming their content (contentKey) get the same images as requests that do not, whatever came in between. A
 * passage is found on the page that draws it (a photo's by OCR), as areas of that page, and nowhere else.
 */
export function pageRendererContract(name: string, makeRenderer: () => PageRenderer | Promise<PageRenderer>, fixtures: PageRendererFixtures): void {
  describe(`PageRenderer contract: ${name}`, function () {
    if (fixtures.timeoutMs) this.timeout(fixtures.timeoutMs);
    let renderer: PageRenderer;
    const { pdf, jpeg } = fixtures;
    const pdfPage = (page: number, maxSide = 800) => renderer.render({ document: pdf.bytes, contentType: 'application/pdf', page, maxSide });

    before(async () => {
      renderer = await makeRenderer();
    });

    it('draws every page of a PDF as an image, each its own, the same again for the same request', async () => {
      const images = [];
      for (let page = 1; page <= pdf.pages; page++) {
        const image = await pdfPage(page);
        expect(image, `page ${page}`).to.not.equal(null);
        expect(image!.contentType).to.match(/^image\/(png|jpeg|webp)$/);
        expect(image!.bytes.length).to.be.greaterThan(100);
        images.push(image!);
      }
      expect(Buffer.compare(images[0].bytes, images[1].bytes)).to.not.equal(0);
      expect(Buffer.from((await pdfPage(1))!.bytes).equals(Buffer.from(images[0].bytes))).to.equal(true);
    });

    it('draws the same image from a document read in pieces (a stored one) as from its bytes; a gone one rejects with NotFoundError', async () => {
      async function* pieces(bytes: Uint8Array, size: number) {
        for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
      }
      const fromBytes = (await pdfPage(2))!;
      const fromPieces = (await renderer.render({ document: () => pieces(pdf.bytes, 100), contentType: 'application/pdf', page: 2, maxSide: 800 }))!;
      expect(Buffer.from(fromPieces.bytes).equals(Buffer.from(fromBytes.bytes))).to.equal(true);
      async function* gone(): AsyncIterable<Uint8Array> {
        throw new NotFoundError('No object under key k');
      }
      expect(await rejection(renderer.render({ document: gone, contentType: 'application/pdf', page: 1, maxSide: 800 }))).to.be.instanceOf(NotFoundError);
      const mismatched = await rejection(renderer.render({ document: () => pieces(jpeg, 7), contentType: 'application/pdf', page: 1, maxSide: 800 }));
      expect(mismatched).to.be.instanceOf(UnprocessableDocumentError);
      expect(await pdfPage(1)).to.not.equal(null);
    });

    it('draws the same images for documents named by their content, in any order, as for the same documents unnamed', async () => {
      const asked = [
        { bytes: pdf.bytes, contentKey: 'content-a', page: 1 },
        { bytes: fixtures.otherPdf, contentKey: 'content-b', page: 1 },
        { bytes: pdf.bytes, contentKey: 'content-a', page: 2 },
        { bytes: fixtures.otherPdf, contentKey: 'content-b', page: 2 },
        { bytes: jpeg, contentKey: 'content-c', page: 1 },
        { bytes: pdf.bytes, contentKey: 'content-a', page: 1 },
        { bytes: fixtures.otherPdf, contentKey: 'content-b', page: 1 },
      ];
      const contentType = (bytes: Uint8Array) => (bytes === jpeg ? 'image/jpeg' : 'application/pdf');
      const images = [];
      for (const { bytes, contentKey, page } of asked) {
        const named = await renderer.render({ document: bytes, contentKey, contentType: contentType(bytes), page, maxSide: 400 });
        const unnamed = await renderer.render({ document: bytes, contentType: contentType(bytes), page, maxSide: 400 });
        expect(Buffer.from(named!.bytes).equals(Buffer.from(unnamed!.bytes)), `${contentKey} page ${page}`).to.equal(true);
        images.push(named!);
      }
      // And the documents' pages are told apart: another document's first page is not this one's.
      expect(Buffer.compare(images[0].bytes, images[1].bytes)).to.not.equal(0);
      expect(await renderer.render({ document: pdf.bytes, contentKey: 'content-a', contentType: 'application/pdf', page: pdf.pages + 1, maxSide: 400 })).to.equal(null);
    });

    it('bounds the image by maxSide', async () => {
      const large = (await pdfPage(1, 1600))!;
      const small = (await pdfPage(1, 200))!;
      expect(small.bytes.length).to.be.lessThan(large.bytes.length);
    });

    it('answers null for a page past the last, and for page 2 of a photo; draws the photo as page 1', async () => {
      expect(await pdfPage(pdf.pages + 1)).to.equal(null);
      const photo = await renderer.render({ document: jpeg, contentType: 'image/jpeg', page: 1, maxSide: 800 });
      expect(photo?.contentType).to.match(/^image\//);
      expect(await renderer.render({ document: jpeg, contentType: 'image/jpg', page: 2, maxSide: 800 })).to.equal(null);
    });

    it('finds a passage on the page that draws it, as areas within the page, whether the document is named or not', async () => {
      const find = (page: number, text: string, contentKey?: string) =>
        renderer.findText({ document: pdf.bytes, contentKey, contentType: 'application/pdf', page, text });
      for (let page = 1; page <= pdf.pages; page++) {
        const areas = await find(page, pdf.lines[page - 1]);
        expect(areas, `page ${page}`).to.have.length.greaterThan(0);
        for (const { x, y, width, height } of areas!) {
          expect(width, `page ${page}`).to.be.greaterThan(0);
          expect(height, `page ${page}`).to.be.greaterThan(0);
          expect(x + width).to.be.at.most(1);
          expect(y + height).to.be.at.most(1);
        }
        expect(await find(page, pdf.lines[page - 1], 'content-a')).to.deep.equal(areas);
        // Another page's line is not on this one.
        expect(await find(page, pdf.lines[page % pdf.pages])).to.deep.equal([]);
      }
      expect(await find(1, 'Words this document never had in it')).to.deep.equal([]);
    });

    it('finds a line on a photo (read by OCR), not another document\'s, and answers null past the last page', async () => {
      const onPhoto = await renderer.findText({ document: jpeg, contentType: 'image/jpeg', page: 1, text: fixtures.jpegLine });
      expect(onPhoto).to.have.length(1);
      expect(onPhoto![0].width).to.be.greaterThan(0);
      expect(await renderer.findText({ document: jpeg, contentType: 'image/jpeg', page: 1, text: pdf.lines[0] })).to.deep.equal([]);
      expect(await renderer.findText({ document: jpeg, contentType: 'image/jpeg', page: 2, text: pdf.lines[0] })).to.equal(null);
      expect(await renderer.findText({ document: pdf.bytes, contentType: 'application/pdf', page: pdf.pages + 1, text: pdf.lines[0] })).to.equal(null);
      const malformed = await rejection(renderer.findText({ document: fixtures.malformedPdf, contentType: 'application/pdf', page: 1, text: pdf.lines[0] }));
      expect(malformed).to.be.instanceOf(UnprocessableDocumentError);
    });

    it('refuses with UnprocessableDocumentError a malformed PDF, an empty file, and content of another type than declared', async () => {
      for (const [what, bytes, contentType] of [
        ['malformed', fixtures.malformedPdf, 'application/pdf'],
        ['empty', new Uint8Array(0), 'application/pdf'],
        ['a JPEG declared as a PDF', jpeg, 'application/pdf'],
        ['a PDF declared as a JPEG', pdf.bytes, 'image/jpeg'],
      ] as const) {
        const error = await rejection(renderer.render({ document: bytes, contentType, page: 1, maxSide: 800 }));
        expect(error, what).to.be.instanceOf(UnprocessableDocumentError);
      }
      // And still works after them.
      expect(await pdfPage(1)).to.not.equal(null);
    });
  });
}
