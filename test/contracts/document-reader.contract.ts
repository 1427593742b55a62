import { expect } from 'chai';
import { NotFoundError, ReadCancelledError, UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader } from '../../core/ports/document-reader.js';

/** Inputs each implementation understands: real files for a real reader, what a fake takes for a PDF or a photo. */
export interface DocumentReaderFixtures {
  /** A PDF with text on at least two pages. */
  pdf: {
    bytes: Uint8Array;
    pages: number;
    /** Phrases expected on some pages, by page number (1-based). */
    textOnPage: Record<number, string[]>;
  };
  /** A photographed page (JPEG) and phrases expected in its text. */
  jpeg: { bytes: Uint8Array; text: string[] };
  /** Mocha timeout of each test (OCR takes seconds); default mocha's. */
  timeoutMs?: number;
}

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/**
 * What every DocumentReader must do (core/ports/document-reader.ts): pages numbered from 1 in order with their text,
 * an image as page 1, progress as fractions 0..1 ending at 1, image/jpg taken as image/jpeg, an
 * UnprocessableDocumentError for empty bytes and for content whose magic bytes contradict the declared type, and a
 * ReadCancelledError once the request's signal is aborted (at once when it already is), after which it reads on; all
 * of it the same for a document given as a stream of pieces (BlobStore.stream, whose NotFoundError passes through).
 */
export function documentReaderContract(
  name: string,
  makeReader: () => DocumentReader | Promise<DocumentReader>,
  fixtures: DocumentReaderFixtures,
): void {
  describe(`DocumentReader contract: ${name}`, function () {
    if (fixtures.timeoutMs) this.timeout(fixtures.timeoutMs);
    let reader: DocumentReader;
    const { pdf, jpeg } = fixtures;

    before(async function () {
      reader = await makeReader();
    });

    const expectText = (page: ExtractedPage, phrases: string[]) => {
      expect(page.text).to.be.a('string');
      for (const phrase of phrases) expect(page.text, `page ${page.page}`).to.include(phrase);
    };

    it('reads a document given as a stream of pieces (a stored one) as it reads its bytes; a gone one rejects with NotFoundError', async function () {
      async function* pieces(bytes: Uint8Array, size: number) {
        for (let start = 0; start < bytes.length; start += size) yield bytes.slice(start, start + size);
      }
      const fromBytes = await reader.read({ document: pdf.bytes, contentType: 'application/pdf' });
      const fromPieces = await reader.read({ document: () => pieces(pdf.bytes, 1000), contentType: 'application/pdf' });
      expect(fromPieces).to.deep.equal(fromBytes);
      async function* gone(): AsyncIterable<Uint8Array> {
        throw new NotFoundError('No object under key k');
      }
      expect(await rejection(reader.read({ document: gone, contentType: 'application/pdf' }))).to.be.instanceOf(NotFoundError);
      const mismatched = await rejection(reader.read({ document: () => pieces(jpeg.bytes, 7), contentType: 'application/pdf' }));
      expect(mismatched).to.be.instanceOf(UnprocessableDocumentError);
      const empty = await rejection(reader.read({ document: () => pieces(new Uint8Array(0), 7), contentType: 'application/pdf' }));
      expect(empty).to.be.instanceOf(UnprocessableDocumentError);
    });

    it('reads a PDF into its pages, numbered from 1 in order, each with its text; tells the page count once, early', async function () {
      const counts: number[] = [];
      const ocrFlags: (boolean | undefined)[] = [];
      const pages = await reader.read({
        document: pdf.bytes, contentType: 'application/pdf', onPageCount: (n) => counts.push(n), onReading: (_page, ocr) => ocrFlags.push(ocr),
      });
      // Pages with a text layer are not read by OCR.
      if (Object.values(pdf.textOnPage).length > 0 && pages.every((p) => p.method === 'text')) expect(ocrFlags.filter(Boolean)).to.deep.equal([]);
      expect(counts, 'the whole document\'s page count, once').to.deep.equal([pdf.pages]);
      expect(pages.map((p) => p.page)).to.deep.equal(Array.from({ length: pdf.pages }, (_, i) => i + 1));
      for (const page of pages) {
        expect(page.text).to.be.a('string');
        expect(page.method).to.be.oneOf(['text', 'ocr', 'ocr-skipped']);
      }
      for (const [n, phrases] of Object.entries(pdf.textOnPage)) expectText(pages[Number(n) - 1]!, phrases);
    });

    it('hands pages over as they are final: in order, each once, all before read() resolves, as it resolves them', async function () {
      const handed: ExtractedPage[] = [];
      let resolved = false;
      const reading = reader.read({
        document: pdf.bytes,
        contentType: 'application/pdf',
        onPages: (batch) => {
          expect(resolved, 'pages handed over after read() resolved').to.equal(false);
          handed.push(...batch);
        },
      });
      const pages = await reading.finally(() => (resolved = true));
      // read() resolves with the same pages; the text of a page handed over may be left out.
      const withoutText = (list: ExtractedPage[]) => list.map((p) => ({ ...p, text: '' }));
      expect(withoutText(handed)).to.deep.equal(withoutText(pages));
      pages.forEach((page, i) => expect(page.text).to.be.oneOf(['', handed[i]!.text]));
      // The texts handed over are what a read without onPages gives.
      const whole = await reader.read({ document: pdf.bytes, contentType: 'application/pdf' });
      expect(handed).to.deep.equal(whole);
      const photo: ExtractedPage[] = [];
      const photoPages = await reader.read({ document: jpeg.bytes, contentType: 'image/jpeg', onPages: (batch) => photo.push(...batch) });
      expect(withoutText(photo)).to.deep.equal(withoutText(photoPages));
      expect(photo).to.deep.equal(await reader.read({ document: jpeg.bytes, contentType: 'image/jpeg' }));
    });

    it('reads from firstPage on: the pages before it are neither handed over nor returned; progress ends at 1', async function () {
      const whole = await reader.read({ document: pdf.bytes, contentType: 'application/pdf' });
      const handed: ExtractedPage[] = [];
      const progress: number[] = [];
      const rest = await reader.read({
        document: pdf.bytes, contentType: 'application/pdf', firstPage: 2,
        onPages: (batch) => handed.push(...batch), onProgress: (fraction) => progress.push(fraction),
      });
      expect(rest.map((p) => p.page)).to.deep.equal(whole.slice(1).map((p) => p.page));
      expect(handed.map((p) => p.page)).to.deep.equal(rest.map((p) => p.page));
      for (const [n, phrases] of Object.entries(pdf.textOnPage)) if (Number(n) >= 2) expectText(handed[Number(n) - 2]!, phrases);
      expect(progress.at(-1)).to.equal(1);
      // Past the last page: nothing is left, which is no error; a photo is its page 1.
      expect(await reader.read({ document: pdf.bytes, contentType: 'application/pdf', firstPage: pdf.pages + 1 })).to.deep.equal([]);
      expect(await reader.read({ document: jpeg.bytes, contentType: 'image/jpeg', firstPage: 2 })).to.deep.equal([]);
    });

    it('reads a JPEG as one page, page 1, with its text; a page it says it is reading is read by OCR', async function () {
      const reading: [number, boolean | undefined][] = [];
      const pages = await reader.read({ document: jpeg.bytes, contentType: 'image/jpeg', onReading: (page, ocr) => reading.push([page, ocr]) });
      // (The page may run one past a photo's one page while its range ends: what counts here is how it is read.)
      for (const [page, ocr] of reading) expect({ page, ocr }, 'a photo is read by OCR').to.include({ ocr: true });
      expect(pages).to.have.length(1);
      expect(pages[0]!.page).to.equal(1);
      expectText(pages[0]!, jpeg.text);
    });

    it('takes image/jpg as image/jpeg', async function () {
      const asJpg = await reader.read({ document: jpeg.bytes, contentType: 'image/jpg' });
      const asJpeg = await reader.read({ document: jpeg.bytes, contentType: 'image/jpeg' });
      expect(asJpg).to.deep.equal(asJpeg);
    });

    it('reports progress as fractions in 0..1 that never go back and end at 1', async function () {
      for (const [bytes, contentType] of [[pdf.bytes, 'application/pdf'], [jpeg.bytes, 'image/jpeg']] as const) {
        const progress: number[] = [];
        await reader.read({ document: bytes, contentType, onProgress: (fraction) => progress.push(fraction) });
        expect(progress, contentType).to.not.be.empty;
        for (const [i, fraction] of progress.entries()) {
          expect(fraction, `${contentType} #${i}`).to.be.within(0, 1);
          if (i > 0) expect(fraction, `${contentType} #${i}`).to.be.at.least(progress[i - 1]!);
        }
        expect(progress.at(-1), contentType).to.equal(1);
      }
    });

    it('refuses content whose magic bytes contradict the declared type', async function () {
      for (const [bytes, contentType] of [
        [pdf.bytes, 'image/jpeg'],
        [pdf.bytes, 'image/jpg'],
        [jpeg.bytes, 'application/pdf'],
      ] as const) {
        expect(await rejection(reader.read({ document: bytes, contentType })), `${contentType}`).to.be.instanceOf(UnprocessableDocumentError);
      }
    });

    it('stops a read whose signal is aborted mid-way with ReadCancelledError, and reads the next document', async function () {
      const controller = new AbortController();
      let progressCalls = 0;
      // Aborted from the first progress report (a page done): the read has started and not yet answered.
      const aborted = rejection(
        reader.read({
          document: pdf.bytes,
          contentType: 'application/pdf',
          signal: controller.signal,
          onProgress: () => {
            progressCalls += 1;
            controller.abort();
          },
        }),
      );
      expect(await aborted).to.be.instanceOf(ReadCancelledError);
      expect(progressCalls).to.be.greaterThan(0);
      const pages = await reader.read({ document: pdf.bytes, contentType: 'application/pdf' });
      expect(pages).to.have.length(pdf.pages);
    });

    it('rejects at once with ReadCancelledError when the signal is already aborted, reporting no progress', async function () {
      const progress: number[] = [];
      for (const [bytes, contentType] of [[pdf.bytes, 'application/pdf'], [jpeg.bytes, 'image/jpeg']] as const) {
        const error = await rejection(reader.read({ document: bytes, contentType, signal: AbortSignal.abort(), onProgress: (f) => progress.push(f) }));
        expect(error, contentType).to.be.instanceOf(ReadCancelledError);
      }
      expect(progress).to.deep.equal([]);
    });

    it('refuses empty bytes', async function () {
      for (const contentType of ['application/pdf', 'image/jpeg', 'image/jpg']) {
        const error = await rejection(reader.read({ document: new Uint8Array(0), contentType }));
        expect(error, contentType).to.be.instanceOf(UnprocessableDocumentError);
      }
    });

    it('reads as usual with a signal that is never aborted', async function () {
      const pages = await reader.read({ document: pdf.bytes, contentType: 'application/pdf', signal: new AbortController().signal });
      expect(pages).to.have.length(pdf.pages);
    });
  });
}
