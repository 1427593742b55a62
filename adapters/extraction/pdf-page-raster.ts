import { createCanvas } from '@napi-rs/canvas';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, RenderParameters } from 'pdfjs-dist/types/src/display/api.js';
import { darkestChannelPgm, type OcrImage } from './ocr-image.js';
import type { PageRaster } from './pdf-page-source.js';

/** Operators that put something visible on a page: glyphs, images, shadings (paths are checked by their paint op). */
const INK_OPS = new Set<number>([
  OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText,
  OPS.shadingFill, OPS.paintXObject, OPS.rawFillPath,
  OPS.paintImageMaskXObject, OPS.paintImageMaskXObjectGroup, OPS.paintImageXObject, OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup, OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObjectRepeat, OPS.paintSolidColorImageMask,
]);

/**
 * Whether anything is drawn on the page that OCR could read: text glyphs, an image, a shading, or a stroked or
 * filled path. A page without any is blank: it is not rendered and not OCR'd (a few milliseconds instead of a
 * second or more per page). Reads pdf.js's operator list; nothing is rasterized.
 */
export async function hasInk(page: PDFPageProxy): Promise<boolean> {
  const { fnArray, argsArray } = await page.getOperatorList();
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    if (INK_OPS.has(fn)) return true;
    // pdf.js folds a path and its painting into constructPath [paintOp, data, bounds]; endPath paints nothing (clips).
    if (fn === OPS.constructPath && (argsArray[i] as unknown[])[0] !== OPS.endPath) return true;
  }
  return false;
}

/**
 * Renders the page at `dpi`, but never above `maxPixels` (posters and maps have huge pages), to a greyscale image
 * for OCR. One canvas at a time: it is released before this returns.
 */
export async function renderForOcr(page: PDFPageProxy, dpi: number, maxPixels: number): Promise<OcrImage> {
  const { width, height } = page.getViewport({ scale: 1 }); // in points (1/72 inch), rotation applied
  const scale = Math.min(dpi / 72, Math.sqrt(maxPixels / (width * height)));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
  try {
    const context = canvas.getContext('2d');
    // pdf.js fills the page white first (transparent areas would otherwise read as black).
    // @napi-rs/canvas stands in for the DOM canvas pdf.js is typed against (pdf.js itself uses it in Node).
    const target = { canvas, canvasContext: context } as unknown as Pick<RenderParameters, 'canvas' | 'canvasContext'>;
    await page.render({ ...target, viewport }).promise;
    const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
    return darkestChannelPgm(rgba, canvas.width, canvas.height);
  } finally {
    // Native pixel memory is freed now rather than whenever the garbage collector gets to the canvas.
    canvas.width = 0;
    canvas.height = 0;
  }
}

/** The page in colour for a person to see, its longest side `maxSide` pixels, at most `maxScale` pixels per point. */
export async function renderForViewing(page: PDFPageProxy, maxSide: number, maxScale: number): Promise<PageRaster> {
  const { width, height } = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: Math.min(maxScale, maxSide / Math.max(width, height)) });
  // Rounded, not floored: 792 points at 1000/792 is 999.99… pixels.
  const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  try {
    const context = canvas.getContext('2d');
    const target = { canvas, canvasContext: context } as unknown as Pick<RenderParameters, 'canvas' | 'canvasContext'>;
    await page.render({ ...target, viewport }).promise;
    return { rgba: context.getImageData(0, 0, canvas.width, canvas.height).data, width: canvas.width, height: canvas.height };
  } finally {
    canvas.width = 0;
    canvas.height = 0;
  }
}
