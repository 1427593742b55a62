import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { PDFParse } from 'pdf-parse';
import type { RenderParameters } from 'pdfjs-dist/types/src/display/api.js';
import type { PageImage } from '../../core/ports/page-renderer.js';
import type { DocumentKind } from './content-type.js';
import { openDocument, pdfjsAssets } from './pdfjs-page-source.js';
import { readJpegHeader } from './jpeg-header.js';
import { decodeJpeg, orientationMatrix } from './raster.js';

/** Scale cap for small pages (a business card PDF): no more detail than 200 dpi would show. */
const MAX_SCALE = 200 / 72;
/** Embedded images pdf.js decodes at most this big (same bound as extraction's default). */
const MAX_PDF_IMAGE_PIXELS = 50_000_000;
const JPEG_QUALITY = 0.85;

/**
 * Draws one page as the user saw it: a PDF page rendered by pdf.js (PNG: crisp text), or a photographed page turned
 * upright (EXIF orientation) and scaled down (JPEG, like the photo). The longest side is at most `maxSide` pixels.
 * null when there is no such page.
 */
export async function renderPageImage(bytes: Uint8Array, kind: DocumentKind, page: number, maxSide: number): Promise<PageImage | null> {
  if (kind === 'jpeg') return page === 1 ? uprightPhoto(bytes, maxSide) : null;
  const parser = new PDFParse({ data: bytes, ...pdfjsAssets(), isEvalSupported: false, maxImageSize: MAX_PDF_IMAGE_PIXELS });
  try {
    const doc = await openDocument(parser);
    if (page > doc.numPages) return null;
    const pdfPage = await doc.getPage(page);
    try {
      const { width, height } = pdfPage.getViewport({ scale: 1 });
      const viewport = pdfPage.getViewport({ scale: Math.min(MAX_SCALE, maxSide / Math.max(width, height)) });
      // Rounded, not floored: 792 points at 1000/792 is 999.99… pixels.
      const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
      try {
        const target = { canvas, canvasContext: canvas.getContext('2d') } as unknown as Pick<RenderParameters, 'canvas' | 'canvasContext'>;
        await pdfPage.render({ ...target, viewport }).promise;
        return { bytes: new Uint8Array(await canvas.encode('png')), contentType: 'image/png' };
      } finally {
        release(canvas);
      }
    } finally {
      pdfPage.cleanup();
    }
  } finally {
    await parser.destroy();
  }
}

async function uprightPhoto(jpeg: Uint8Array, maxSide: number): Promise<PageImage> {
  const { orientation } = readJpegHeader(jpeg);
  const source = decodeJpeg(jpeg);
  try {
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
  } finally {
    release(source);
  }
}

/** Native pixel memory is freed now rather than whenever the garbage collector gets to the canvas. */
function release(canvas: Canvas): void {
  canvas.width = 0;
  canvas.height = 0;
}
