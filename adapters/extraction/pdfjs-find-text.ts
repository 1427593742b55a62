import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { PageArea } from '../../core/ports/page-renderer.js';
import { area, findPassage, joinLineAreas, type LineArea } from './passage-match.js';

/** Glyphs reach this far below the baseline and above it, in font heights (pdf.js gives no per-glyph box). */
const DESCENT = 0.25;
const ASCENT = 0.85;

/**
 * Where `passage` is drawn on a pdf.js page: its text items' characters matched (passage-match.ts), each run's part
 * of an item boxed by its share of the item's advance (pdf.js knows items, not glyphs), turned into the page as shown
 * (viewport: /Rotate applied) as fractions of its width and height.
 */
export async function findTextOnPage(page: PDFPageProxy, passage: string): Promise<PageArea[]> {
  const items = (await page.getTextContent()).items.filter((item): item is TextItem => 'str' in item);
  const chars: string[] = [];
  const at: { item: number; offset: number }[] = [];
  items.forEach((item, index) => {
    for (let offset = 0; offset < item.str.length; offset++) {
      chars.push(item.str[offset]);
      at.push({ item: index, offset });
    }
    // A line's end as a character of its own (PDFium has one): a full stop ending one line is not the next line's.
    if (item.hasEOL) chars.push('\n'), at.push({ item: -1, offset: 0 });
  });
  const viewport = page.getViewport({ scale: 1 });
  const areas: LineArea[] = [];
  for (const { start, end } of findPassage(chars, passage)) {
    // One area per item the run touches: from the first character in it to the last.
    for (let i = start; i < end; ) {
      const { item: index, offset: from } = at[i];
      if (index < 0 && ++i) continue;
      let to = from + 1;
      while (i + 1 < end && at[i + 1].item === index) i++, (to = at[i].offset + 1);
      i++;
      const item = items[index];
      const [a, b, c, d, e, f] = item.transform as number[];
      const along = Math.hypot(a, b) || 1;
      const across = Math.hypot(c, d) || 1;
      const height = item.height || across;
      const [ux, uy, vx, vy] = [a / along, b / along, c / across, d / across];
      const x0 = (item.width * from) / item.str.length;
      const x1 = (item.width * to) / item.str.length;
      const corners = [[x0, -DESCENT], [x1, -DESCENT], [x0, ASCENT], [x1, ASCENT]].map(([s, t]) =>
        viewport.convertToViewportPoint(e + ux * s + vx * t * height, f + uy * s + vy * t * height) as number[],
      );
      const xs = corners.map(([x]) => x / viewport.width);
      const ys = corners.map(([, y]) => y / viewport.height);
      const found = area(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
      // The line runs down the page as shown when its corners along it (0 and 1) differ more in y than in x.
      const down = Math.abs(corners[1][1] - corners[0][1]) > Math.abs(corners[1][0] - corners[0][0]);
      if (found.width > 0 && found.height > 0) areas.push({ ...found, down });
    }
  }
  return joinLineAreas(areas);
}
