import path from 'node:path';
import { createRequire } from 'node:module';
import { PDFParse } from 'pdf-parse';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { PDF_MESSAGES, type PdfPageSource, type PdfPageSourceOptions } from './pdf-page-source.js';
import { hasInk, renderForOcr, renderForViewing } from './pdf-page-raster.js';
import { findTextOnPage } from './pdfjs-find-text.js';

/**
 * PDF pages read by pdf.js through pdf-parse: its per-page text layout (lines, cell gaps), its operator list for
 * "is anything drawn", and its renderer on @napi-rs/canvas for OCR. Each page's data is released after use
 * (page.cleanup()); dropCaches() drops the document-wide caches.
 */
export async function openPdfjsPageSource(bytes: Uint8Array, { maxPdfImagePixels }: PdfPageSourceOptions): Promise<PdfPageSource> {
  const parser = new PDFParse({ data: bytes, ...pdfjsAssets(), isEvalSupported: false, maxImageSize: maxPdfImagePixels });
  let doc: PDFDocumentProxy;
  try {
    doc = await openDocument(parser);
  } catch (error) {
    await parser.destroy().catch(() => {});
    throw toPdfError(error);
  }
  const pageText = pageTextReader(parser, doc);
  const withPage = async <T>(num: number, use: (page: PDFPageProxy) => Promise<T>): Promise<T> => {
    const page = await doc.getPage(num).catch((error: unknown) => Promise.reject(toPdfError(error)));
    try {
      return await use(page).catch((error: unknown) => Promise.reject(toPdfError(error)));
    } finally {
      page.cleanup();
    }
  };
  return {
    pageCount: doc.numPages,
    text: (num) => pageText(num).catch((error: unknown) => Promise.reject(toPdfError(error))),
    hasInk: (num) => withPage(num, hasInk),
    renderForOcr: (num, dpi, maxPixels) => withPage(num, (page) => renderForOcr(page, dpi, maxPixels)),
    renderForViewing: (num, maxSide, maxScale) => withPage(num, (page) => renderForViewing(page, maxSide, maxScale)),
    findText: (num, passage) => withPage(num, (page) => findTextOnPage(page, passage)),
    dropCaches: () => doc.cleanup(),
    close: () => parser.destroy().catch(() => {}),
  };
}

/**
 * The parsed pdf.js document behind pdf-parse (its load() is private in its typings, public at run time): pages are
 * read one at a time from it, and rendered or cleaned up through it.
 */
export async function openDocument(parser: PDFParse): Promise<PDFDocumentProxy> {
  const load = (parser as unknown as { load?: () => Promise<PDFDocumentProxy> }).load;
  if (typeof load !== 'function') throw new Error('pdf-parse no longer exposes load(); check its version');
  return load.call(parser);
}

/**
 * pdf-parse's own text layout of one page (lines and cell gaps as its getText() makes them), then the page is
 * cleaned up. getText({ partial: [n] }) does the same but walks every page number of the document to find n: on
 * 5,000 pages that is 25 million checks. Falls back to it should pdf-parse rename its per-page method.
 */
function pageTextReader(parser: PDFParse, doc: PDFDocumentProxy): (num: number) => Promise<string> {
  type PageText = (page: PDFPageProxy, params: object, total: number) => Promise<string>;
  const ofPage = (parser as unknown as { getPageText?: PageText }).getPageText;
  if (typeof ofPage !== 'function') return async (num) => (await parser.getText({ partial: [num] })).pages[0]?.text ?? '';
  return async (num) => {
    const page = await doc.getPage(num);
    try {
      return await ofPage.call(parser, page, {}, doc.numPages);
    } finally {
      page.cleanup();
    }
  };
}

/** pdf.js errors that describe the document (names survive the library's re-wrapping), in words a user can act on. */
function toPdfError(error: unknown): unknown {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new UnprocessableDocumentError(PDF_MESSAGES.passwordProtected, { cause: error });
  }
  if (name === 'InvalidPDFException' || name === 'FormatError') {
    return new UnprocessableDocumentError(PDF_MESSAGES.invalidPdf, { cause: error });
  }
  return error;
}

let assets: { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string } | undefined;

/**
 * Local pdf.js resources: CMaps (text of CJK fonts), the 14 standard fonts (rendering PDFs that do not embed them)
 * and the wasm decoders (JPEG 2000 scans). In Node pdf.js reads these paths from disk; without them it would
 * silently lose that text or those images. Resolved from pdf-parse so we get the pdfjs-dist it was built with.
 */
export function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string } {
  if (!assets) {
    const requireFromPdfParse = createRequire(createRequire(import.meta.url).resolve('pdf-parse'));
    const root = path.dirname(requireFromPdfParse.resolve('pdfjs-dist/package.json'));
    // pdf.js insists on a trailing slash.
    assets = {
      cMapUrl: path.join(root, 'cmaps') + '/',
      standardFontDataUrl: path.join(root, 'standard_fonts') + '/',
      wasmUrl: path.join(root, 'wasm') + '/',
    };
  }
  return assets;
}
