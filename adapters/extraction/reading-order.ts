/**
 * Reading order of a page set in columns of prose. Some typesetting systems draw a page line by line across all its
 * columns (IRS instructions, three columns: "If you have items of U.S. source benefits or change your employment or"
 * is the first line of the first column and of the third), so text in content order mixes the columns' sentences.
 * Here a page's segments (runs of text a wide gap ends, see pdfium-text.ts) are read column after column when the page
 * has gutters, x-ranges that (nearly) no segment crosses, with prose on both sides. Text crossing a gutter (a title,
 * a running head) ends a band of columns. A table keeps its rows as lines: its numeric or short cells are not prose.
 * Written here because no maintained npm package orders positioned PDF text by columns (pdf.js and PDFium give content
 * order; poppler's layout analysis is C++ only).
 */

/** A run of a line's text with its extent along the line and its baseline (y grows up the page). */
export interface TextSegment {
  text: string;
  left: number;
  right: number;
  y: number;
  size: number;
}

/** Fewer segments than this: too little text to tell columns from anything else. */
const MIN_SEGMENTS = 12;
/** A gutter is at least this many font sizes wide. */
const MIN_GUTTER = 0.8;
/** At most this share of the segments (at least 2: a title, a running head) may cross a gutter. */
const CROSSING_SHARE = 0.06;
/** A column of prose: this many segments at least, mostly letters, this long on average, some lines carried on. */
const MIN_COLUMN_SEGMENTS = 4;
const MIN_LETTER_SHARE = 0.6;
const MIN_MEAN_CHARS = 18;
/** Lines of prose carry a sentence on: this share of a column's segments at least starts with a small letter. */
const MIN_CARRIED_SHARE = 0.15;

/**
 * The page's lines in reading order when its segments form columns of prose, each segment a line (segments of one
 * column on one baseline joined); undefined when they do not, and the lines stay as they are.
 */
export function readingOrder(lines: readonly (readonly TextSegment[])[]): string[] | undefined {
  const segments = lines.flat().filter((s) => s.text.trim() !== '');
  if (segments.length < MIN_SEGMENTS || !lines.some((line) => line.length > 1)) return undefined;
  const em = median(segments.map((s) => s.size)) || 10;
  const gutters = findGutters(segments, em);
  if (gutters.length === 0) return undefined;
  // A justified line's end may reach into a gutter: a segment crosses one only over its middle.
  const middles = gutters.map(([a, b]) => (a + b) / 2);
  const columnOf = (s: TextSegment): number | undefined => {
    if (middles.some((m) => s.left < m && s.right > m)) return undefined;
    return middles.filter((m) => s.left >= m).length;
  };
  const columnOfSegment = new Map(segments.map((s) => [s, columnOf(s)]));
  const columns = Array.from({ length: gutters.length + 1 }, () => [] as TextSegment[]);
  for (const [s, column] of columnOfSegment) if (column !== undefined) columns[column].push(s);
  if (!columns.every(isProse)) return undefined;
  // Top to bottom (y grows up), then left to right; a segment crossing a gutter closes the band above it.
  const sorted = [...segments].sort((a, b) => b.y - a.y || a.left - b.left);
  const out: string[] = [];
  let band: TextSegment[][] = columns.map(() => []);
  const flush = () => {
    for (const column of band) out.push(...joinedByBaseline(column, em));
    band = columns.map(() => []);
  };
  for (const s of sorted) {
    const column = columnOfSegment.get(s);
    if (column === undefined) {
      flush();
      out.push(s.text);
    } else band[column].push(s);
  }
  flush();
  return out;
}

/**
 * X-ranges at least MIN_GUTTER wide that at most CROSSING_SHARE of the segments cross, with a fifth of the segments at
 * least wholly on either side (not a page margin, not a gap beside a lone figure label).
 */
function findGutters(segments: readonly TextSegment[], em: number): [number, number][] {
  const left = Math.min(...segments.map((s) => s.left));
  const right = Math.max(...segments.map((s) => s.right));
  const step = em / 4;
  const bins = Math.ceil((right - left) / step);
  if (!(bins > 0) || bins > 100_000) return [];
  const cover = new Uint32Array(bins);
  for (const s of segments) {
    const from = Math.max(0, Math.floor((s.left - left) / step));
    const to = Math.min(bins, Math.ceil((s.right - left) / step));
    for (let i = from; i < to; i++) cover[i] += 1;
  }
  const allowed = Math.max(2, Math.floor(CROSSING_SHARE * segments.length));
  const minSide = segments.length / 5;
  const gutters: [number, number][] = [];
  for (let i = 0; i < bins; ) {
    if (cover[i] > allowed) {
      i++;
      continue;
    }
    let j = i;
    while (j < bins && cover[j] <= allowed) j++;
    const a = left + i * step;
    const b = left + j * step;
    if (b - a >= MIN_GUTTER * em) {
      // Its middle: where the fewest segments cross, so a gutter's ragged edges count as its sides.
      const leftSide = segments.filter((s) => s.right <= a + step).length;
      const rightSide = segments.filter((s) => s.left >= b - step).length;
      if (leftSide >= minSide && rightSide >= minSide) gutters.push([a, b]);
    }
    i = j;
  }
  return gutters;
}

/** Whether a column's segments read as prose: enough of them, mostly letters, long, some carrying a sentence on. */
function isProse(column: readonly TextSegment[]): boolean {
  if (column.length < MIN_COLUMN_SEGMENTS) return false;
  const text = column.map((s) => s.text).join('');
  const visible = text.replace(/\s/g, '');
  const letters = visible.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTER_SHARE * visible.length) return false;
  if (text.length / column.length < MIN_MEAN_CHARS) return false;
  const carried = column.filter((s) => /^\s*\p{Ll}/u.test(s.text)).length;
  return carried >= MIN_CARRIED_SHARE * column.length;
}

/** A column's segments as lines, top to bottom; those on one baseline (a dotted leader's two ends) joined. */
function joinedByBaseline(column: TextSegment[], em: number): string[] {
  const lines: string[] = [];
  let lastY = Infinity;
  for (const s of column) {
    if (lines.length > 0 && Math.abs(lastY - s.y) < em / 2) lines[lines.length - 1] += ` ${s.text}`;
    else lines.push(s.text);
    lastY = s.y;
  }
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
