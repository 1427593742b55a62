import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';

/**
 * Page text from pdf.js's text items, laid out in lines and table cells the way pdf-parse 2.4.5's getPageText() does
 * with its default parameters (pdfium-text.ts reproduces the same layout from PDFium's characters). Written here
 * rather than reached through pdf-parse: pdf-parse pinned pdf.js and @napi-rs/canvas to exact versions a major behind,
 * and its per-page method is private; this is the whole of what we used of it, on the pdf.js we choose.
 */

/** Baselines this far apart (points, viewport at scale 1) are on different lines; closer, on one (pdf-parse's lineThreshold). */
const LINE_THRESHOLD = 4.6;
/** A gap wider than this (points) between two items on one line separates table cells (pdf-parse's cellThreshold). */
const CELL_THRESHOLD = 7;
const CELL_SEPARATOR = '\t';

/** One text item where the page shows it: its string, origin (viewport, y down), advance, height and line end. */
export interface PlacedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hasEOL: boolean;
}

/** The page's text: its items in content order, laid out by layoutTextItems. */
export async function pdfjsPageText(page: PDFPageProxy): Promise<string> {
  const viewport = page.getViewport({ scale: 1 });
  const { items } = await page.getTextContent();
  const placed: PlacedItem[] = [];
  for (const item of items) {
    if (!('str' in item)) continue; // marked-content boundaries carry no text
    const { str, transform, width, height, hasEOL } = item as TextItem;
    const [x, y] = viewport.convertToViewportPoint(transform[4], transform[5]);
    placed.push({ str, x, y, width, height, hasEOL });
  }
  return layoutTextItems(placed);
}

/**
 * Joins text items into lines: pdf.js's own line ends (hasEOL) are kept; where it gave none, a baseline that moved by
 * more than LINE_THRESHOLD and by more than the line's tallest item so far starts a new line (superscripts and
 * subscripts stay in theirs); on one line, a gap wider than CELL_THRESHOLD puts a tab before the item (table cells,
 * tab stops). Quirks kept on purpose so the text does not change: the gap is measured from the previous item's origin
 * plus its advance whatever the direction, and a baseline move between LINE_THRESHOLD and the line's height adds
 * neither a line end nor a tab.
 */
export function layoutTextItems(items: readonly PlacedItem[]): string {
  const out: string[] = [];
  let lastX: number | undefined;
  let lastY: number | undefined;
  let lineHeight = 0;
  for (const item of items) {
    let { str } = item;
    if (lastY !== undefined) {
      const yShift = Math.abs(lastY - item.y);
      const startsLine = str.startsWith('\n') || (str.trim() === '' && item.hasEOL);
      if (yShift > LINE_THRESHOLD && out.length > 0 && !out[out.length - 1].endsWith('\n') && !startsLine && yShift - 1 > lineHeight) {
        out.push('\n');
        lineHeight = 0;
      }
      if (yShift < LINE_THRESHOLD && lastX !== undefined && Math.abs(lastX - item.x) > CELL_THRESHOLD) str = CELL_SEPARATOR + str;
    }
    out.push(str);
    lastX = item.x + item.width;
    lastY = item.y;
    lineHeight = Math.max(lineHeight, item.height);
    if (item.hasEOL) out.push('\n');
    if (item.hasEOL || str.endsWith('\n')) lineHeight = 0;
  }
  return out.join('');
}
