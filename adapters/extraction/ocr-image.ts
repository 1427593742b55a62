/**
 * The greyscale image OCR reads and what is decided from its pixels alone. Plain code, no canvas and no pdf.js: the
 * extraction process loads @napi-rs/canvas and pdf.js only when it decodes a photo or reads with pdf.js (together
 * ~27 MB of its resident memory), not for PDFs read with PDFium.
 */

export interface OcrImage {
  /** Binary greyscale PGM ("P5"): Leptonica reads it without decoding, and it is far cheaper to produce than PNG. */
  pgm: Uint8Array;
  width: number;
  height: number;
}

/** RGBA pixels to a binary greyscale PGM, each pixel its darkest channel (see toOcrImage). */
export function darkestChannelPgm(rgba: Uint8ClampedArray, width: number, height: number): OcrImage {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const pgm = new Uint8Array(header.length + width * height);
  pgm.set(header);
  for (let src = 0, dst = header.length; src < rgba.length; src += 4, dst++) {
    const r = rgba[src];
    const g = rgba[src + 1];
    const b = rgba[src + 2];
    pgm[dst] = r < g ? (r < b ? r : b) : g < b ? g : b;
  }
  return { pgm, width, height };
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
