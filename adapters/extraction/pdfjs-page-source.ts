import path from 'node:path';
import { createRequire } from 'node:module';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { PDF_MESSAGES, type PdfPageSource, type PdfPageSourceOptions } from './pdf-page-source.js';
import { hasInk, renderForOcr, renderForViewing } from './pdf-page-raster.js';
import { findTextOnPage } from './pdfjs-find-text.js';
import { pdfjsPageText } from './pdfjs-text.js';

/**
 * PDF pages read by pdf.js (its legacy build, the one made for Node): its text items laid out in lines and cells
 * (pdfjs-text.ts), its operator list for "is anything drawn", and its renderer on @napi-rs/canvas for OCR. Each page's
 * data is released after use (page.cleanup()); dropCaches() drops the document-wide caches.
 */
export async function openPdfjsPageSource(bytes: Uint8Array, { maxPdfImagePixels }: PdfPageSourceOptions): Promise<PdfPageSource> {
  const task = getDocument({
    data: Buffer.isBuffer(bytes) ? new Uint8Array(bytes) : bytes, // pdf.js refuses a Buffer
    ...pdfjsAssets(),
    maxImageSize: maxPdfImagePixels,
    verbosity: VerbosityLevel.ERRORS, // a damaged file would log a warning per broken object
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    throw toPdfError(error);
  }
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
    text: (num) => withPage(num, pdfjsPageText),
    hasInk: (num) => withPage(num, hasInk),
    renderForOcr: (num, dpi, maxPixels) => withPage(num, (page) => renderForOcr(page, dpi, maxPixels)),
    renderForViewing: (num, maxSide, maxScale) => withPage(num, (page) => renderForViewing(page, maxSide, maxScale)),
    findText: (num, passage) => withPage(num, (page) => findTextOnPage(page, passage)),
    dropCaches: () => doc.cleanup(),
    // The loading task owns the document and pdf.js's (in-process) worker: destroying it frees both.
    close: () => task.destroy().catch(() => {}),
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
 * and the wasm decoders (JPEG 2000 and JBIG2 scans, ICC colour). In Node pdf.js reads these paths from disk, never the
 * network; without them it would silently lose that text or those images. Not `iccUrl` (its CMYK profile): pdf.js
 * fetches that one with XMLHttpRequest, which Node lacks; without it CMYK is converted as before, by formula.
 */
export function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string } {
  if (!assets) {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    // pdf.js insists on a trailing slash.
    assets = {
      cMapUrl: path.join(root, 'cmaps') + '/',
      standardFontDataUrl: path.join(root, 'standard_fonts') + '/',
      wasmUrl: path.join(root, 'wasm') + '/',
    };
  }
  return assets;
}
