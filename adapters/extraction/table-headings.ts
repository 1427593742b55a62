/**
 * A table's column headings wrapped over lines, read by their columns. A report prints a heading such as "Less Than
 * 1 Year" on two lines within its column; a text layer gives one line per printed line, so the headings' words arrive
 * interleaved ("Total Less Than" / "1 Year" / "1-3 Years 3-5 Years More Than" / "5 Years") and no reading of the words
 * alone can tell which column each names. Here the page's geometry does: the figure columns' extents come from the
 * table's rows (right below the headings), each heading segment goes to the column it stands over, and the headings
 * become one line, one cell per column, kept apart by CELL_SEPARATOR: "Total | Less Than 1 Year | 1-3 Years | …".
 * A heading over all the columns ("Years Ended December 31,") stays a line of its own above, one over a group heads
 * each of its columns, and a unit ("(in thousands)") goes on a line below. Headings on one line, and evenly stacked ones
 * drawn line by line, are left as they are: their words come in column order already.
 * Written here because no maintained npm package reads table structure from positioned PDF text in Node (pdfplumber
 * and camelot are Python).
 */
import { CELL_SEPARATOR, NO_HEADING } from '../../core/rag/layout.js';
import type { TextSegment } from './reading-order.js';

/**
 * A table cell with a figure, or a nil: "$98,389", "(1,674)", "12.5%", "(9.4%)", "(38)%", "—"; with a footnote's asterisk,
 * or the next cell's currency sign set close after it ("21 % $").
 */
const FIGURE = /^(?:[$€£¥]\s?)?(?:\(?[-–]?(?:[$€£¥]\s?)?\d[\d,]*(?:\.\d+)?(?:\s?%)?\)?(?:\s?%)?|[—–-])(?:\s?\*+)?(?:\s[$€£¥])?$/;
/** A unit printed with the headings, in a heading or on a line of its own: "(in thousands)", "$'000", "(Dollars in millions)". */
const UNIT_WORDS = String.raw`\(?\s*(?:[$€£¥]\s?['’]?000|(?:[$€£¥]|dollars|amounts|euros?)?\s*in\s+(?:thousands|millions|billions)\b[^)]*)\s*\)?`;
const UNIT = new RegExp(`^${UNIT_WORDS}$`, 'i');
const UNIT_IN_HEADING = new RegExp(`(?:^|\\s)${UNIT_WORDS}(?=\\s|$)`, 'gi');
/** Lines looked at above a table's first row for its headings. */
const MAX_HEADING_LINES = 24;
/** A heading cell longer than this is prose, not a heading. */
const MAX_HEADING_WORDS = 8;
/** Heading lines further apart than this many font sizes are not one table's (a title well above it). */
const HEADING_GAP = 2.5;
/**
 * Lines are looked at this far from those found so far: headings drawn column by column come back down the page, so
 * the line above in the text layer may stand several lines up (a last column's one-line heading over three-line ones).
 */
const HEADING_REACH = 5;

/**
 * The page's lines with each table's wrapped headings (two printed lines or more) read by columns into one line.
 * Lines are returned as strings; segments of one line are joined with a space, as before.
 */
export function withTableHeadings(lines: readonly (readonly TextSegment[])[]): string[] {
  const out = lines.map((line) => line.map((s) => s.text).join(' '));
  const replaced = new Map<number, string[]>();
  const dropped = new Set<number>();
  for (let start = 1; start < lines.length; start++) {
    if (!isRow(lines[start]) || isRow(lines[start - 1])) continue;
    const columns = figureColumns(lines, start);
    if (columns.length < 2) continue;
    const tableLeft = Math.min(...lines[start].map((s) => s.left));
    const above = headingLines(lines, start, columns[0].left, tableLeft);
    if (above.length < 2) continue;
    // Lines that go back up the page: the headings were drawn column by column, so even stacked ones interleave.
    const top = (i: number) => Math.max(...lines[i].map((s) => s.y));
    const interleaved = above.some((i, k) => k > 0 && top(i) > top(above[k - 1]) + 0.5 * Math.max(...lines[i].map((s) => s.size)));
    const read = byColumns(above.map((i) => lines[i]), columns, tableLeft, interleaved);
    if (!read) continue;
    above.forEach((i) => dropped.add(i));
    replaced.set(above[0], read);
  }
  if (replaced.size === 0) return out;
  return out.flatMap((text, i) => replaced.get(i) ?? (dropped.has(i) ? [] : [text]));
}

/** A table row: a label (or none) and one figure or more after it, every segment after the first a figure. */
function isRow(segments: readonly TextSegment[]): boolean {
  const line = signsJoined(segments);
  const figures = line.filter((s) => FIGURE.test(s.text.trim()));
  // A line of years ("2019 2018 2017") heads the columns.
  if (figures.length >= 2 && figures.every((s) => YEAR_CELL.test(s.text.trim()))) return false;
  return figures.length >= 1 && line.length >= 2 && line.slice(1).every((s) => FIGURE.test(s.text.trim()));
}
const YEAR_CELL = /^(?:19|20)\d\d$/;

/**
 * A row's segments with a currency sign set apart from its figure ("$   2,853") joined to it: the cell is both, and
 * its heading is centred over both.
 */
function signsJoined(line: readonly TextSegment[]): readonly TextSegment[] {
  const out: TextSegment[] = [];
  line.forEach((s, k) => {
    const previous = line[k - 1];
    if (/^[$€£¥]$/.test(s.text.trim())) return;
    if (previous && /^[$€£¥]$/.test(previous.text.trim())) out.push({ ...s, text: `${previous.text.trim()} ${s.text.trim()}`, left: previous.left });
    else out.push(s);
  });
  return out;
}

interface Extent {
  left: number;
  right: number;
}

/**
 * The figure columns of the table whose first row is `start`: the figure segments of its rows (up to the first line
 * that is neither a row nor a label alone), merged where they overlap along the line, left to right.
 */
function figureColumns(lines: readonly (readonly TextSegment[])[], start: number): Extent[] {
  const cells: Extent[] = [];
  for (let i = start; i < lines.length && i < start + 60; i++) {
    const line = lines[i];
    if (isRow(line)) cells.push(...signsJoined(line).filter((s, k) => k > 0 || FIGURE.test(s.text.trim())));
    else if (line.length > 1) break;
  }
  const sorted = [...cells].sort((a, b) => a.left - b.left);
  const columns: Extent[] = [];
  for (const cell of sorted) {
    const last = columns.at(-1);
    if (last && cell.left <= last.right) last.right = Math.max(last.right, cell.right);
    else columns.push({ left: cell.left, right: cell.right });
  }
  return columns;
}

/**
 * The lines just above the first row that hold the table's headings: each segment short, no figure but a year or a
 * footnote mark, and at least one over the figure columns (right of `figuresLeft`), or a unit; in the order given.
 */
function headingLines(lines: readonly (readonly TextSegment[])[], start: number, figuresLeft: number, tableLeft: number): number[] {
  const found: number[] = [];
  // The headings stand together right above the rows: a gap of more than a few lines ends them (a page's running head).
  let lowest = Math.max(...lines[start].map((s) => s.y));
  let highest = lowest;
  for (let i = start - 1; i >= 0 && found.length < MAX_HEADING_LINES; i--) {
    const line = lines[i];
    const short = line.every((s) => s.text.trim().split(/\s+/).length <= MAX_HEADING_WORDS && !/\d{1,3},\d{3}|\d\.\d/.test(s.text));
    const overFigures = line.some((s) => s.right > figuresLeft);
    // Text running from the table's left edge into the figures' columns is the paragraph above: the headings end there.
    // (A wide heading may reach left of its figures, not to the edge.)
    const prose = line.some((s) => s.left < tableLeft + s.size && s.right > figuresLeft);
    // Text mostly left of the figures that reaches into them is a title across the page, not a column's heading.
    const title = line.some((s) => s.right > figuresLeft && figuresLeft - s.left > (s.right - s.left) / 2);
    // A figure other than a year, a note's mark or a date's day ("30" of "30 June 2019" wrapped in its column): a row
    // the layout could not tell as one, not a heading.
    const figure = line.some((s) => FIGURE.test(s.text.trim()) && !YEAR_CELL.test(s.text.trim()) && !/^\(\d\)$|^\d{1,2},?$/.test(s.text.trim()));
    const y = Math.max(...line.map((s) => s.y));
    const apart = y > highest + HEADING_REACH * Math.max(...line.map((s) => s.size)) || y < lowest - HEADING_REACH * Math.max(...line.map((s) => s.size));
    if (!short || prose || title || figure || apart || isRow(line)) break;
    if (!overFigures && !UNIT.test(line.map((s) => s.text).join(' ').trim())) {
      // A section's title in the label column over the first rows ("Assets") stands between them and the headings.
      if (found.length === 0 && i >= start - 2) {
        highest = Math.max(highest, y);
        continue;
      }
      break;
    }
    found.unshift(i);
    highest = Math.max(highest, y);
    lowest = Math.min(lowest, y);
  }
  return closeTogether(lines, found);
}

/** The lines found, from the lowest up to the first gap of more than HEADING_GAP between them. */
function closeTogether(lines: readonly (readonly TextSegment[])[], found: number[]): number[] {
  const top = (i: number) => Math.max(...lines[i].map((s) => s.y));
  const size = (i: number) => Math.max(...lines[i].map((s) => s.size));
  let reached = Math.min(...found.map(top));
  const kept = new Set<number>();
  for (const i of [...found].sort((a, b) => top(a) - top(b))) {
    if (top(i) > reached + HEADING_GAP * size(i)) break;
    kept.add(i);
    reached = Math.max(reached, top(i));
  }
  return found.filter((i) => kept.has(i));
}

/**
 * The headings' segments by column, top line first: a segment over one column is that column's; one over some (a
 * group's heading, "2019" over "Amount %") heads each of them; one over all, or alone on the top line over three
 * columns or more ("Fiscal 2019" centred over the quarters), heads the table on a line of its own above, as
 * label-column text does; units go on a line below.
 * A column without a heading (a change's "%" beside its amount) is NO_HEADING. Undefined unless the columns' own
 * headings take unequal numbers of lines or were drawn column by column (`interleaved`), or when fewer than two
 * columns have one.
 */
function byColumns(lines: readonly (readonly TextSegment[])[], columns: Extent[], tableLeft: number, interleaved: boolean): string[] | undefined {
  const segments = lines.flat().filter((s) => s.text.trim() !== '');
  // The label column's heading starts at the table's left edge; a heading short of its figures' edge is still theirs.
  const labels = segments.filter((s) => s.right <= columns[0].left && s.left < tableLeft + s.size);
  const units = new Set<string>();
  for (const s of segments) if (!labels.includes(s) && UNIT.test(s.text.trim())) units.add(s.text.trim());
  const headings = segments.filter((s) => !labels.includes(s) && !UNIT.test(s.text.trim()));
  // A heading alone on the top line heads all the columns, however narrow it is ("Year Ended December 31," over
  // "2015 2016 2017"). Lower down, a lone segment is as likely a heading's wrapped last line over the middle column.
  const top = Math.max(...headings.map((s) => s.y));
  const onTop = headings.filter((s) => sameLine(s.y, top, s.size));
  const aloneOnTop = (s: TextSegment) => onTop.length === 1 && onTop[0] === s && columns.length >= 3 && headings.length > 1;
  const own: TextSegment[][] = columns.map(() => []);
  const heads: TextSegment[][] = columns.map(() => []);
  const above: TextSegment[] = [];
  for (const segment of headings) {
    const over = columns.flatMap((c, k) => (Math.min(c.right, segment.right) - Math.max(c.left, segment.left) > 0 ? [k] : []));
    if (aloneOnTop(segment) || over.length === columns.length) above.push(segment);
    else if (over.length >= 2) over.forEach((k) => heads[k].push(segment));
    else own[over[0] ?? nearest(columns, segment)].push(segment);
  }
  // Headings wrapped unevenly ("Total" beside "Less Than" over "1 Year"), or drawn column by column: their words
  // interleave in the text layer. Evenly stacked ones drawn line by line come through as lines of words in column
  // order, which the core reads.
  const depth = own.map((c) => new Set(c.map((s) => Math.round(s.y))).size);
  if (Math.max(...depth) < 2 || (Math.min(...depth) === Math.max(...depth) && !interleaved)) return undefined;
  const topDown = (a: TextSegment, b: TextSegment) => b.y - a.y || a.left - b.left;
  const joined = (list: TextSegment[]) => [...list].sort(topDown).map((s) => s.text.trim()).join(' ');
  const cells = columns.map((_, k) => joined([...heads[k], ...own[k]]).replace(UNIT_IN_HEADING, (unit) => (units.add(unit.trim()), ' ')).replace(/\s+/g, ' ').trim());
  if (cells.filter(Boolean).length < 2) return undefined;
  const over = joined(above).replace(UNIT_IN_HEADING, (unit) => (units.add(unit.trim()), ' ')).replace(/\s+/g, ' ').trim();
  return [...[over, joined(labels)].filter(Boolean), cells.map((c) => c || NO_HEADING).join(CELL_SEPARATOR), ...[...units].slice(0, 1)];
}

/** Two baselines of one printed line. */
function sameLine(y: number, other: number, size: number): boolean {
  return Math.abs(y - other) < size * 0.5;
}

/** The column whose extent lies closest to a segment between columns. */
function nearest(columns: Extent[], segment: TextSegment): number {
  const middle = (segment.left + segment.right) / 2;
  let best = 0;
  columns.forEach((c, k) => {
    if (Math.abs((c.left + c.right) / 2 - middle) < Math.abs((columns[best].left + columns[best].right) / 2 - middle)) best = k;
  });
  return best;
}
