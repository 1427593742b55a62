import type { PageArea } from '../../core/ports/page-renderer.js';
import type { OcrImage } from './ocr-image.js';

/** Which library reads PDFs in the extraction process (PDF_READER). */
export const PDF_READERS = ['pdfjs', 'pdfium'] as const;
export type PdfReaderName = (typeof PDF_READERS)[number];

/** What a PDF is refused with, whichever library read it: the same words for the same fault. */
export const PDF_MESSAGES = {
  passwordProtected: 'The PDF is password-protected; upload a copy without a password',
  invalidPdf: 'The file is not a valid PDF (it is damaged or truncated)',
} as const;

/**
 * A PDF's bytes, or the file that holds them. From a file, PDFium reads blocks as it parses instead of keeping a copy
 * of the whole file (pdf.js reads it whole either way).
 */
export type PdfBytes = Uint8Array | { file: string };

/** A page drawn in colour for a person to look at: RGBA, four bytes per pixel, rows top to bottom. */
export interface PageRaster {
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
}

export interface PdfPageSourceOptions {
  /** Images in the PDF with more pixels are left out when rendering (pdf.js maxImageSize; PDF_MAX_IMAGE_PIXELS). */
  maxPdfImagePixels: number;
}

/**
 * One open PDF, read a page at a time by page number (1-based), in any order: DocumentExtractor reads pages through
 * this, so the library behind it (pdf.js or PDFium) is a setting. Opening throws UnprocessableDocumentError with
 * PDF_MESSAGES for a password-protected or damaged file.
 */
export interface PdfPageSource {
  readonly pageCount: number;
  /** The page's text layer as lines (one per visual line, table cells on one line), before normalizeExtractedText. */
  text(pageNumber: number): Promise<string>;
  /** Whether anything OCR could read is drawn on the page (glyphs, images, shadings, painted paths). */
  hasInk(pageNumber: number): Promise<boolean>;
  /** The page rendered at `dpi` (never above `maxPixels`) as a greyscale image for OCR. */
  renderForOcr(pageNumber: number, dpi: number, maxPixels: number): Promise<OcrImage>;
  /**
   * The page in colour as it is shown (rotation applied, annotations drawn, on white): its longest side `maxSide`
   * pixels, but never more than `maxScale` pixels per point (a business card is not blown up).
   */
  renderForViewing(pageNumber: number, maxSide: number, maxScale: number): Promise<PageRaster>;
  /**
   * Where `passage` (text as extraction gave it: see passage-match.ts) is drawn on the page, as areas of the page as
   * renderForViewing draws it; [] when the page's text layer does not hold it.
   */
  findText(pageNumber: number, passage: string): Promise<PageArea[]>;
  /** Drops document-wide caches (fonts, images) between pages; a long document calls it every few hundred pages. */
  dropCaches(): Promise<void>;
  /** Frees everything the document holds. */
  close(): Promise<void>;
}
