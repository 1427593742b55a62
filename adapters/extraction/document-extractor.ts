import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentAttachment } from '../../core/ports/document-reader.js';
import type { DocumentKind, StructuredKind } from './content-type.js';
import { documentUnits } from './formats/document-units.js';
import { openImagePages, type ImageKind } from './formats/image-pages.js';
import { readJpegHeader } from './jpeg-header.js';
import { countWordCharacters, markParagraphBreaks, normalizeExtractedText } from './normalize-text.js';
import { OcrEngine } from './ocr-engine.js';
import { hasTextLikeInk } from './ocr-image.js';
import { openPdfPageSource } from './open-pdf-page-source.js';
import { PDF_MESSAGES, type PdfBytes, type PdfPageSource, type PdfReaderName } from './pdf-page-source.js';
import { wholeBytes } from './read-whole-file.js';
import { LIMIT_VARIABLES, tooManyPagesMessage } from './errors.js';

export interface ExtractionSettings {
  /** Resolution at which PDF pages without a text layer are rendered for OCR. */
  renderDpi: number;
  /** Upper bound for the pixels of an image given to OCR (rendered pages and photos are scaled down to it). */
  maxImagePixels: number;
  /** A PDF page whose text layer has fewer letters and digits than this is OCR'd (scans, scans with a stamp). */
  minTextCharsPerPage: number;
  /** A PDF with more pages is refused (MAX_DOCUMENT_PAGES). */
  maxPages: number;
  /** Pages OCR'd per document; later pages that need OCR come back as 'ocr-skipped', empty (MAX_OCR_PAGES). */
  maxOcrPages: number;
  /** Images in a PDF with more pixels are left out instead of decoded (pdf.js maxImageSize; PDFium too) (PDF_MAX_IMAGE_PIXELS). */
  maxPdfImagePixels: number;
  /** The library that reads PDFs: pdf.js (JavaScript) or PDFium (WebAssembly) (PDF_READER). */
  pdfReader: PdfReaderName;
  /** Rows a workbook or CSV file may have; a longer one fails (MAX_SHEET_ROWS). */
  maxSheetRows: number;
  /** Bytes the parts of a Word, Excel or PowerPoint file may unpack to; more fails, as a zip bomb (MAX_UNPACKED_MB). */
  maxUnpackedBytes: number;
}

/** Pages firstPage..lastPage (1-based, inclusive; a lastPage past the end stops at the end). */
export interface PageRange {
  firstPage: number;
  lastPage: number;
  /**
   * Keep the PDF open under this name for the next range of the same document (see openPdf): opening a 36 MB PDF
   * again costs ~0.3 CPU-s per range.
   */
  keepOpenAs?: string;
}

/** A document's bytes, or the file that holds them (a PDF is then read from it as PdfBytes says). */
export type DocumentBytes = PdfBytes;

/** What the extraction process hears from a document as it goes. */
export interface ExtractionEvents {
  /** The document is open and has `pages` pages (before any page is read). */
  onStart?(pages: number): void;
  /** A page is read (in order, once each): it is passed on at once, so no process holds a long document's text twice. */
  onPage(page: ExtractedPage): void;
  /** `fraction` of the whole document is behind (position, not count), pages up to number `pagesDone` are finished. */
  onProgress(fraction: number, pagesDone: number): void;
  /**
   * Asked before OCR-ing a page: false leaves it 'ocr-skipped'. Given when several processes read one document, which
   * share its MAX_OCR_PAGES budget; without it the budget is this call's own (settings.maxOcrPages).
   */
  takeOcrPage?(): Promise<boolean>;
  /** Called between two pages: true when the PDF reader's caches should be dropped (the process grew large). */
  shouldCleanUp?(): boolean;
  /** The PDF reader's caches were just dropped: a good moment to collect garbage. */
  onCleanedUp?(): void;
  /** The document's parts that are documents of their own (an e-mail's attachments), before its pages. */
  onAttachments?(attachments: DocumentAttachment[]): void;
}

export const MESSAGES = {
  ...PDF_MESSAGES,
  invalidImage: 'The image could not be decoded (it is damaged or truncated)',
  noText: 'The document contains no readable text',
} as const;

/** The PDF reader's caches (pdf.js: fonts, images, parsed pages) are dropped this often even when the process is small. */
const CLEANUP_EVERY_PAGES = 250;
/**
 * And at most this often when shouldCleanUp() says so: a document whose live data stays above the threshold must not
 * drop its fonts (and collect) on every page, which made issue 18's long document 7× slower.
 */
const MIN_PAGES_BETWEEN_CLEANUPS = 25;
/**
 * The OCR engine (a thread with ~150 MB of wasm memory) is stopped after this many pages read without OCR, and at the
 * end of a document: the scanned pages of a long report are few and far apart, and restarting it costs ~0.3 s.
 */
const OCR_IDLE_PAGES = 50;

/** Decoding needs several bytes per pixel at once; 50 MP covers full-resolution phone photos. */
const MAX_JPEG_PIXELS = 50_000_000;

/**
 * Turns a PDF or JPEG into per-page text. Runs inside an extraction child process: everything here is CPU-bound.
 * One instance per process, so the OCR engine is started once and reused across pages and documents.
 */
export class DocumentExtractor {
  /** Read-only outside: tests look at whether its thread runs. */
  readonly ocr = new OcrEngine();

  /** The PDF of the last range read with keepOpenAs, open for that document's next range. */
  private kept?: { name: string; pdf: PdfPageSource };

  constructor(private readonly settings: ExtractionSettings) {}

  /**
   * Reads the document page by page into events.onPage. The text of the pages still carries running headers and
   * footers: removeRunningHeaders() needs all pages, so whoever collects them applies it. Given a range, reads only
   * those pages of a PDF (a JPEG is one page) and leaves the "no readable text" verdict to whoever sees all ranges.
   */
  async extract(bytes: DocumentBytes, kind: DocumentKind, events: ExtractionEvents, range?: PageRange): Promise<void> {
    events.onProgress(0, 0);
    let withText = 0;
    let skipped = 0;
    const tally: ExtractionEvents = {
      ...events,
      onPage: (page) => {
        if (countWordCharacters(page.text, 1) > 0) withText++;
        if (page.method === 'ocr-skipped') skipped++;
        events.onPage(page);
      },
    };
    try {
      if (kind === 'pdf') await this.readPdf(bytes, tally, range ?? { firstPage: 1, lastPage: Infinity });
      else if (kind === 'jpeg') await this.readJpeg(wholeBytes(bytes), tally);
      else if (kind === 'png' || kind === 'webp' || kind === 'tiff' || kind === 'heic') await this.readImage(kind, wholeBytes(bytes), tally, range);
      else await this.readUnits(kind, wholeBytes(bytes), tally, range);
    } finally {
      await this.ocr.terminate(); // its memory goes back while the server indexes, or the process waits idle
    }
    if (withText === 0 && !range) throw noReadableTextError(skipped, this.settings.maxOcrPages);
  }

  close(): Promise<void> {
    return Promise.all([this.ocr.terminate(), this.closeKeptPdf()]).then(() => {});
  }

  /** Lets go of the PDF kept open for a next range (its document is done, or the process waits idle). */
  async closeKeptPdf(): Promise<void> {
    const kept = this.kept;
    this.kept = undefined;
    await kept?.pdf.close().catch(() => {});
  }

  /** The kept PDF when `name` is it; else a new one (kept under `name` if given, the previous one closed). */
  private async openPdf(bytes: DocumentBytes, name: string | undefined): Promise<PdfPageSource> {
    if (name !== undefined && this.kept?.name === name) return this.kept.pdf;
    await this.closeKeptPdf();
    const { pdfReader, maxPdfImagePixels } = this.settings;
    const pdf = await openPdfPageSource(pdfReader, bytes, { maxPdfImagePixels });
    if (name !== undefined) this.kept = { name, pdf };
    return pdf;
  }

  /**
   * Page by page: each page's text layer, and OCR only where it has too little text and something is drawn. The page
   * source releases each page's data after it; its document-wide caches are dropped every few hundred pages or when
   * the process grows large, so memory stays flat however long the document is.
   */
  private async readPdf(bytes: DocumentBytes, events: ExtractionEvents, { firstPage, lastPage, keepOpenAs }: PageRange): Promise<void> {
    const { maxPages, maxOcrPages, minTextCharsPerPage } = this.settings;
    let pdf: PdfPageSource | undefined;
    let failed = false;
    try {
      pdf = await this.openPdf(bytes, keepOpenAs);
      const total = pdf.pageCount;
      if (total > maxPages) throw new UnprocessableDocumentError(tooManyPagesMessage(total, maxPages));
      events.onStart?.(total);
      let ocrPages = 0;
      const takeOcrPage = events.takeOcrPage ?? (async () => ocrPages++ < maxOcrPages);
      let cleanedAt = firstPage - 1;
      let lastOcrAt = firstPage - 1;
      for (let num = firstPage; num <= Math.min(lastPage, total); num++) {
        let text = markParagraphBreaks(normalizeExtractedText(await pdf.text(num)));
        let method: ExtractedPage['method'] = 'text';
        // A page with nothing drawn is blank: its (short) text layer is all there is.
        if (await pageNeedsOcr(pdf, num, text, minTextCharsPerPage)) {
          if (!(await takeOcrPage())) {
            text = '';
            method = 'ocr-skipped';
          } else {
            const ocrText = await this.ocrPdfPage(pdf, num, (sub) => events.onProgress((num - 1 + sub) / total, num - 1));
            // Keep the text layer when OCR finds less (a blank page with a page number, a non-Latin script).
            if (countWordCharacters(ocrText) >= countWordCharacters(text)) {
              text = ocrText;
              method = 'ocr';
            }
          }
        }
        if (method !== 'text') lastOcrAt = num;
        else if (num - lastOcrAt === OCR_IDLE_PAGES) await this.ocr.terminate();
        events.onPage({ page: num, text, method });
        events.onProgress(num / total, num);
        if (num % CLEANUP_EVERY_PAGES === 0 || (num - cleanedAt >= MIN_PAGES_BETWEEN_CLEANUPS && events.shouldCleanUp?.())) {
          cleanedAt = num;
          await pdf.dropCaches();
          events.onCleanedUp?.();
        }
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A kept PDF stays open for the next range, unless this one failed (its state is then unknown).
      if (failed && pdf !== undefined && pdf === this.kept?.pdf) await this.closeKeptPdf();
      else if (pdf !== this.kept?.pdf) await pdf?.close();
    }
  }

  private async ocrPdfPage(pdf: PdfPageSource, num: number, onProgress: (fraction: number) => void): Promise<string> {
    const image = await pdf.renderForOcr(num, this.settings.renderDpi, this.settings.maxImagePixels);
    // Drawn, but nothing that could be text (a white rectangle, a faint background, a rule or a border): no OCR.
    if (!hasTextLikeInk(image)) return '';
    return normalizeExtractedText(await this.ocr.recognize(image.pgm, 'auto', onProgress));
  }

  /**
   * A document without pages (text, Markdown, HTML, CSV, Word, Excel, PowerPoint, e-mail): its units (sections,
   * sheets, slides, a mail's headers and body) are its pages, each already text, none needing OCR. A mail's
   * attachments go to events.onAttachments, as documents of their own.
   */
  private async readUnits(kind: StructuredKind, bytes: Uint8Array, events: ExtractionEvents, range?: PageRange): Promise<void> {
    const { maxSheetRows, maxUnpackedBytes, maxPages } = this.settings;
    const units = await documentUnits(kind, bytes, { maxSheetRows, maxUnpackedBytes }, (attachments) => events.onAttachments?.(attachments));
    if (units.length > maxPages) throw new UnprocessableDocumentError(tooManyPagesMessage(units.length, maxPages));
    events.onStart?.(units.length);
    const first = range?.firstPage ?? 1;
    const last = Math.min(range?.lastPage ?? Infinity, units.length);
    for (let num = first; num <= last; num++) {
      const { text, label } = units[num - 1]!;
      // The label goes with the page ('' for a unit without one): a source then names "Sheet Q3", not "page 3", and
      // the document is known to be read as units (IngestJob.units).
      events.onPage({ page: num, text: normalizeExtractedText(text), method: 'text', label });
      events.onProgress(num / units.length, num);
    }
  }

  /** A PNG, WebP, HEIC photo or a TIFF of one page or many: OCR as for a JPEG, page by page, within the OCR budget. */
  private async readImage(kind: ImageKind, bytes: Uint8Array, events: ExtractionEvents, range?: PageRange): Promise<void> {
    const { maxPages, maxOcrPages, maxImagePixels } = this.settings;
    const pages = await openImagePages(kind, bytes);
    try {
      if (pages.count > maxPages) throw new UnprocessableDocumentError(tooManyPagesMessage(pages.count, maxPages));
      events.onStart?.(pages.count);
      const { rgbaCanvas, toOcrImage } = await import('./raster.js');
      let ocrPages = 0;
      const takeOcrPage = events.takeOcrPage ?? (async () => ocrPages++ < maxOcrPages);
      const last = Math.min(range?.lastPage ?? Infinity, pages.count);
      for (let num = range?.firstPage ?? 1; num <= last; num++) {
        if (!(await takeOcrPage())) {
          events.onPage({ page: num, text: '', method: 'ocr-skipped' });
        } else {
          const { rgba, width, height, orientation } = await pages.page(num - 1);
          const image = toOcrImage(rgbaCanvas(rgba, width, height), orientation, maxImagePixels);
          const mode = pages.count === 1 ? 'block' : 'auto';
          const text = normalizeExtractedText(await this.ocr.recognize(image.pgm, mode, (sub) => events.onProgress((num - 1 + sub) / pages.count, num - 1)));
          events.onPage({ page: num, text, method: 'ocr' });
        }
        events.onProgress(num / pages.count, num);
      }
    } finally {
      pages.close();
    }
  }

  private async readJpeg(bytes: Uint8Array, events: ExtractionEvents): Promise<void> {
    const { width, height, orientation } = readJpegHeader(bytes);
    if (!width || !height) throw new UnprocessableDocumentError(MESSAGES.invalidImage);
    if (width * height > MAX_JPEG_PIXELS) {
      const megapixels = Math.round((width * height) / 1e6);
      throw new UnprocessableDocumentError(
        `The image is too large (${megapixels} megapixels); upload a photo of at most ${MAX_JPEG_PIXELS / 1e6} megapixels`,
      );
    }
    const { decodeJpeg, toOcrImage } = await import('./raster.js'); // canvas and pdf.js's decoders: photos only
    let image;
    try {
      image = toOcrImage(decodeJpeg(bytes), orientation, this.settings.maxImagePixels);
    } catch (error) {
      throw new UnprocessableDocumentError(MESSAGES.invalidImage, { cause: error });
    }
    // Photos are mostly single pages, receipts and forms: one block keeps "label ... amount" lines together.
    events.onStart?.(1);
    const text = normalizeExtractedText(await this.ocr.recognize(image.pgm, 'block', (fraction) => events.onProgress(fraction, 0)));
    events.onPage({ page: 1, text, method: 'ocr' });
    events.onProgress(1, 1);
  }
}

/**
 * Whether a PDF page is read by OCR: too little text in its text layer (`text`, normalised), and something drawn. Page
 * images ask it too, to read such a page again when a passage is to be found on it.
 */
export async function pageNeedsOcr(pdf: PdfPageSource, num: number, text: string, minTextChars: number): Promise<boolean> {
  return countWordCharacters(text, minTextChars) < minTextChars && (await pdf.hasInk(num));
}

/** A document without any page of text: say so, and say when the OCR limit left scanned pages unread. */
export function noReadableTextError(skippedPages: number, maxOcrPages: number): UnprocessableDocumentError {
  return new UnprocessableDocumentError(
    skippedPages === 0 ? MESSAGES.noText : `${MESSAGES.noText} in its first ${maxOcrPages} scanned pages; ` +
      `${skippedPages} more were not OCR'd (at most ${maxOcrPages} per document, ${LIMIT_VARIABLES.maxOcrPages})`,
  );
}
