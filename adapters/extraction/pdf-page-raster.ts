import { createCanvas } from '@napi-rs/canvas';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, RenderParameters } from 'pdfjs-dist/types/src/display/api.js';
import { darkestChannelPgm, type OcrImage } from './raster.js';

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

const DARK = 160;
/**
 * A run of dark pixels this long (a fraction of the page's width: ~1 inch on a letter page) is a rule, a border or a
 * filled shape, not a stroke of a letter: letters of text up to ~72 pt have shorter strokes.
 */
const LINE_RUN_OF_WIDTH = 1 / 8;
/**
 * Fewer dark pixels off such lines than this share of the page: nothing for OCR to read. 1/20,000 is ~420 pixels on a
 * letter page at 300 dpi, the ink of about four 10 pt characters: a lone page number, not a line of words.
 */
const MIN_TEXT_INK_SHARE = 1 / 20_000;
const MIN_TEXT_INK_PIXELS = 64;

/**
 * Whether a rendered page has enough ink that could be text to be worth OCR: dark pixels that lie on no long
 * horizontal or vertical run. Pages of real reports drawn with only a rule, a border or a box (and at most a page
 * number) have a drawing but no text layer; OCR found nothing on them and started its engine for each (issue 18: 10
 * of the 14 pages OCR'd in the 4,557-page PDF; the 14 took half of the extraction's CPU time). Scans, photos and text
 * drawn as outlines keep their short strokes and noise, so they are still read.
 */
export function hasTextLikeInk(image: OcrImage): boolean {
  const needed = Math.max(MIN_TEXT_INK_PIXELS, Math.round(image.width * image.height * MIN_TEXT_INK_SHARE));
  return textLikeInkPixels(image, needed) >= needed;
}

/** Dark pixels of the image on no long horizontal or vertical run, counted up to `enough`. */
export function textLikeInkPixels(image: OcrImage, enough = Infinity): number {
  const { pgm, width, height } = image;
  const start = pgm.length - width * height;
  const longRun = Math.max(8, Math.round(width * LINE_RUN_OF_WIDTH));
  // Row by row: each row's long horizontal runs are marked; per column, the current vertical run's length and how
  // many of its pixels are off horizontal lines, counted when the run ends shorter than a line.
  const onLine = new Uint8Array(width);
  const columnRun = new Uint32Array(width);
  const columnTextLike = new Uint32Array(width);
  let textLike = 0;
  for (let y = 0; y <= height; y++) {
    const row = start + y * width;
    if (y < height) {
      onLine.fill(0);
      for (let x = 0; x < width;) {
        if (pgm[row + x] >= DARK) { x++; continue; }
        let end = x;
        while (end < width && pgm[row + end] < DARK) end++;
        if (end - x >= longRun) onLine.fill(1, x, end);
        x = end;
      }
    }
    for (let x = 0; x < width; x++) {
      if (y < height && pgm[row + x] < DARK) {
        columnRun[x]++;
        if (!onLine[x]) columnTextLike[x]++;
      } else if (columnRun[x] > 0) {
        if (columnRun[x] < longRun && (textLike += columnTextLike[x]) >= enough) return textLike;
        columnRun[x] = 0;
        columnTextLike[x] = 0;
      }
    }
  }
  return textLike;
}
