import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { PageArea, PageImage } from '../../core/ports/page-renderer.js';
import type { DocumentKind } from './content-type.js';
import { readJpegHeader } from './jpeg-header.js';
import { openPdfPageSource } from './open-pdf-page-source.js';
import type { PdfBytes, PdfPageSource, PdfReaderName } from './pdf-page-source.js';
import { encodePng } from './png-encoder.js';
import { pageNeedsOcr, type ExtractionSettings } from './document-extractor.js';
import { normalizeExtractedText } from './normalize-text.js';
import type { OcrEngine } from './ocr-engine.js';
import { findTextInOcrLines } from './ocr-find-text.js';
import { hasTextLikeInk } from './ocr-image.js';
import { decodeJpeg, orientationMatrix, rgbaCanvas, toOcrImage } from './raster.js';
import { openImagePages, type ImageKind } from './formats/image-pages.js';
import { wholeBytes } from './read-whole-file.js';

/** Scale cap for small pages (a business card PDF): no more detail than 200 dpi would show. */
const MAX_SCALE = 200 / 72;
/** Embedded images are decoded at most this big (same bound as extraction's default). */
const MAX_PDF_IMAGE_PIXELS = 50_000_000;
const JPEG_QUALITY = 0.85;

/**
 * Draws one page as the user saw it: a PDF page rendered by `reader` (PNG: crisp text), or a photographed page turned
 * upright (EXIF orientation) and scaled down (JPEG, like the photo). The longest side is at most `maxSide` pixels.
 * null when there is no such page. PDFium reads a PDF given as a file block by block: a page of a 5,000-page report
 * costs no more than a page of a short one (pdf.js parses the whole file each time).
 */
export async function renderPageImage(document: PdfBytes, kind: DocumentKind, page: number, maxSide: number, reader: PdfReaderName): Promise<PageImage | null> {
  if (kind === 'jpeg') return page === 1 ? uprightPhoto(wholeBytes(document), maxSide) : null;
  if (kind === 'png' || kind === 'webp' || kind === 'tiff' || kind === 'heic') return imagePage(kind, wholeBytes(document), page, maxSide);
  if (kind !== 'pdf') return null;
  const pdf = await openPdfForViewing(document, reader);
  try {
    return await renderPdfPageImage(pdf, page, maxSide);
  } finally {
    await pdf.close();
  }
}

/** Opens a PDF to draw its pages with renderPdfPageImage (kept open, the next page needs no second parse). */
export function openPdfForViewing(document: PdfBytes, reader: PdfReaderName): Promise<PdfPageSource> {
  return openPdfPageSource(reader, document, { maxPdfImagePixels: MAX_PDF_IMAGE_PIXELS });
}

/** One page of an open PDF as a PNG (see renderPageImage); null past its last page. */
export async function renderPdfPageImage(pdf: PdfPageSource, page: number, maxSide: number): Promise<PageImage | null> {
  if (page > pdf.pageCount) return null;
  const { rgba, width, height } = await pdf.renderForViewing(page, maxSide, MAX_SCALE);
  return { bytes: encodePng(rgba, width, height), contentType: 'image/png' };
}

/** What finding a passage by OCR needs: the engine, and the settings ingestion read the page's text with. */
export interface OcrFinding {
  ocr: Pick<OcrEngine, 'recognizeLines'>;
  settings: Pick<ExtractionSettings, 'renderDpi' | 'maxImagePixels' | 'minTextCharsPerPage'>;
}

/**
 * Where a passage is drawn on one page of an open PDF (see PdfPageSource.findText); null past its last page. A page
 * ingestion read by OCR (too little text, something drawn) is read by OCR again, as then, to place its words.
 */
export async function findTextInPdf(pdf: PdfPageSource, page: number, passage: string, { ocr, settings }: OcrFinding): Promise<PageArea[] | null> {
  if (page > pdf.pageCount) return null;
  const areas = await pdf.findText(page, passage);
  if (areas.length > 0) return areas;
  const { minTextCharsPerPage, renderDpi, maxImagePixels } = settings;
  if (!(await pageNeedsOcr(pdf, page, normalizeExtractedText(await pdf.text(page)), minTextCharsPerPage))) return [];
  const image = await pdf.renderForOcr(page, renderDpi, maxImagePixels);
  if (!hasTextLikeInk(image)) return [];
  return findTextInOcrLines(await ocr.recognizeLines(image.pgm, 'auto'), image.width, image.height, passage);
}

/** Where a passage lies on a photographed page: read by OCR again as ingestion read it (upright, one block). */
export async function findTextInPhoto(jpeg: Uint8Array, passage: string, { ocr, settings }: OcrFinding): Promise<PageArea[]> {
  const source = decodeJpeg(jpeg);
  try {
    const image = toOcrImage(source, readJpegHeader(jpeg).orientation, settings.maxImagePixels);
    return findTextInOcrLines(await ocr.recognizeLines(image.pgm, 'block'), image.width, image.height, passage);
  } finally {
    release(source);
  }
}

async function uprightPhoto(jpeg: Uint8Array, maxSide: number): Promise<PageImage> {
  const source = decodeJpeg(jpeg);
  try {
    return await upright(source, readJpegHeader(jpeg).orientation, maxSide);
  } finally {
    release(source);
  }
}

/** A page of a PNG, WebP, TIFF or HEIC image, upright and scaled as a photo is; null past its last page. */
async function imagePage(kind: ImageKind, bytes: Uint8Array, page: number, maxSide: number): Promise<PageImage | null> {
  const pages = await openImagePages(kind, bytes);
  try {
    if (page > pages.count) return null;
    const { rgba, width, height, orientation } = await pages.page(page - 1);
    const source = rgbaCanvas(rgba, width, height);
    try {
      return await upright(source, orientation, maxSide);
    } finally {
      release(source);
    }
  } finally {
    pages.close();
  }
}

/** A page drawn upright (its orientation, EXIF's numbering) at most `maxSide` pixels on its longest side, as JPEG. */
async function upright(source: Canvas, orientation: number, maxSide: number): Promise<PageImage> {
  const swap = orientation >= 5 && orientation <= 8;
  const [uprightWidth, uprightHeight] = swap ? [source.height, source.width] : [source.width, source.height];
  const scale = Math.min(1, maxSide / Math.max(uprightWidth, uprightHeight));
  const canvas = createCanvas(Math.max(1, Math.round(uprightWidth * scale)), Math.max(1, Math.round(uprightHeight * scale)));
  try {
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingQuality = 'high';
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.transform(...orientationMatrix(orientation, source.width, source.height));
    ctx.drawImage(source, 0, 0);
    return { bytes: new Uint8Array(await canvas.encode('jpeg', Math.round(JPEG_QUALITY * 100))), contentType: 'image/jpeg' };
  } finally {
    release(canvas);
  }
}

/** Native pixel memory is freed now rather than whenever the garbage collector gets to the canvas. */
function release(canvas: Canvas): void {
  canvas.width = 0;
  canvas.height = 0;
}
