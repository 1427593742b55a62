import { headerCells, isTableLine, namedColumns, remainderNotAsked, splitRow, termKey, termKeys, wordTokens, type ContextPassage, type UnitKind } from '../../core/index.js';
import { isFrameWord } from './answer-support.js';

/**
 * Figure questions ("What is the FY2018 capital expenditure (in USD millions)?") are answered by a table row, which
 * the sentence ranking (fitted on prose) scores poorly: a row shares few words with the question, and those in the
 * documents' own wording ("Purchases of property, plant and equipment"). An answer skill (core/ports/answer-skill.ts)
 * tells a figure question and gives that wording; here rows are matched on it, and the chosen row is quoted with its
 * column header, the figure of the year asked for first. Rows are split by core/rag/layout.ts.
 */

export interface RowCandidate {
  passage: ContextPassage;
  rank: number;
  position: number;
  kind: UnitKind;
  text: string;
}

const stems = termKeys;
const TOTAL = termKey('total');

/**
 * How much a row gains when the heading of its table names what the question names: a report's tables often share
 * their row labels ("TOTAL REVENUES" under each region's heading, "Revenues" under "NIKE, INC. CONSOLIDATED
 * STATEMENTS OF INCOME"), and only the heading tells whose figure a row is. As much as a label word of middling weight.
 */
const NAMED_HEADING_WEIGHT = 0.5;

/**
 * The row that best names what is asked. Words are weighted by how rare they are among the passages' lines ("total",
 * "net" head many rows; "inventories" few): the weighted share of the row's label the question asks for, plus the
 * weight of what it matches relative to the best row, plus the share of the question's `names` its table's heading
 * holds (NAMED_HEADING_WEIGHT), plus a little for retrieval rank. Undefined when no row's label is at least half (by
 * weight) words of the question.
 */
export function bestRow<C extends RowCandidate>(candidates: C[], wording: string, names: readonly string[] = []): C | undefined {
  const asked = new Set(stems(wording));
  const df = new Map<string, number>();
  for (const c of candidates) for (const t of new Set(stems(c.text))) df.set(t, (df.get(t) ?? 0) + 1);
  const weight = (t: string) => Math.log(1 + candidates.length / (df.get(t) ?? 1));
  const sum = (terms: string[]) => terms.reduce((total, t) => total + weight(t), 0);
  const rows = candidates.flatMap((c) => {
    if (c.kind !== 'row') return [];
    // A leading "Total" says the row sums its section ("Total cost of revenue" is the cost of revenue), not which item
    // it is: it counts only when asked for.
    const label = [...new Set(stems(splitRow(c.text).label).filter((t, i) => !/^\d/.test(t) && (i > 0 || t !== TOTAL || asked.has(TOTAL))))];
    const matched = label.filter((t) => asked.has(t));
    // A row the question names by its qualifier alone ("Net income" for "net cash", a bare "Total" for "total operating
    // income") is another line item: some word of what it matched must be neither its first of several nor a frame
    // word; a bare "Total" is its table's total, named when the table's title holds a word of the subject asked.
    const titled = () => stems(tableTitleOf(c, candidates) ?? '').some((t) => asked.has(t) && !isFrameWord(t));
    if (!matched.some((t) => !isFrameWord(t) && (t !== label[0] || label.length === 1)) && !(label.length === 1 && label[0] === TOTAL && titled())) return [];
    // "Other income and expenses" is what is not the income named elsewhere: only a question saying "other" asks for it.
    if (remainderNotAsked(splitRow(c.text).label, wording)) return [];
    const precision = matched.length > 0 ? sum(matched) / sum(label) : 0;
    // A row the question names at most half of is another line item ("Total cost of revenue" for "revenue").
    return precision >= 0.5 ? [{ candidate: c, precision, covered: sum(matched) }] : [];
  });
  const most = Math.max(...rows.map((r) => r.covered));
  let best: { candidate: C; score: number } | undefined;
  const named = [...new Set(names.map(termKey))];
  const headingShare = (row: C): number => {
    if (named.length === 0) return 0;
    const heading = tableTitleOf(row, candidates);
    const words = new Set(heading ? wordTokens(heading).map(termKey) : []);
    return named.filter((name) => words.has(name)).length / named.length;
  };
  for (const r of rows) {
    const score = r.precision + r.covered / most + NAMED_HEADING_WEIGHT * headingShare(r.candidate) + 0.2 / (1 + r.candidate.rank);
    if (!best || score > best.score) best = { candidate: r.candidate, score };
  }
  return best?.candidate;
}

/** At most this many other tables' rows of the same line item an answer adds to the one it chose. */
const MAX_SAME_ITEMS = 2;

/**
 * The chosen row and the same line item in other tables of the passages, each with the name that tells its table
 * apart: a report prints "Paid memberships at end of period" under "Domestic Streaming Segment", "International
 * Streaming Segment" and "Domestic DVD Segment", and a question that names none of them asks of all. Rows of the same
 * label (letters compared) and other text; a table's name is the line of its title nearest the table that the other
 * tables' titles do not share. In the document's order; [] when there is no other such row, or the chosen row's table
 * has no such name.
 */
export function sameItemElsewhere<C extends RowCandidate>(row: C, candidates: C[]): { row: C; table: string }[] {
  const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();
  const label = letters(splitRow(row.text).label);
  const rows = [row];
  for (const c of candidates) {
    if (rows.length > MAX_SAME_ITEMS) break;
    if (c.kind === 'row' && !rows.some((r) => r.text === c.text) && letters(splitRow(c.text).label) === label) rows.push(c);
  }
  if (rows.length === 1) return [];
  const titles = rows.map((r) => titleLinesOf(r, candidates));
  const names = titles.map((own, i) => {
    const others = new Set(titles.flatMap((lines, j) => (j === i ? [] : lines.map(letters))));
    return own.findLast((line) => !others.has(letters(line)));
  });
  if (names[0] === undefined) return [];
  const named = rows.flatMap((r, i) => (names[i] !== undefined ? [{ row: r, table: names[i]! }] : []));
  // In the document's order.
  named.sort((a, b) => a.row.passage.filename.localeCompare(b.row.passage.filename) || a.row.passage.page - b.row.passage.page
    || a.row.rank - b.row.rank || a.row.position - b.row.position);
  return named.length > 1 ? named : [];
}

/** At most this many lines above a table are its title ("NIKE, INC." / "CONSOLIDATED STATEMENTS OF INCOME" / "YEAR ENDED MAY 31,"). */
const TITLE_LINES = 4;
/** A line of more words, or of more than 4 ending a sentence ("NIKE, INC." does not), is the prose before the table. */
const TITLE_WORDS = 12;

/**
 * The title of the row's table in its passage: the short lines above the table's first row (headings, captions and
 * dates; column headers between them are skipped), up to the prose or the table before it.
 */
function tableTitleOf<C extends RowCandidate>(row: C, candidates: C[]): string | undefined {
  const title = titleLinesOf(row, candidates);
  return title.length > 0 ? title.join(' ') : undefined;
}

/** The lines of the row's table title (see tableTitleOf), top to bottom. */
function titleLinesOf<C extends RowCandidate>(row: C, candidates: C[]): string[] {
  const units = candidates.filter((c) => c.passage === row.passage).sort((a, b) => a.position - b.position);
  let i = units.indexOf(row);
  while (i > 0 && isTableLine(units[i - 1])) i--; // up to the table's first row or column header
  const title: string[] = [];
  for (let j = i - 1; j >= 0 && title.length < TITLE_LINES; j--) {
    const unit = units[j];
    if (unit.kind === 'columns') continue;
    const words = unit.text.split(' ').length;
    if (isTableLine(unit) || words > TITLE_WORDS || (words > 4 && /[.!?]$/.test(unit.text))) break;
    title.unshift(unit.text);
  }
  return title;
}

/**
 * The column header above the row in its passage: a line of years, or else a header of names just above the table's
 * first row ("State / Territory Permit Handgun … Totals", core/rag/layout.ts namedColumns) that does not end like a
 * sentence (the prose introducing a table is no header).
 */
export function columnHeaderOf<C extends RowCandidate>(row: C, candidates: C[]): string | undefined {
  const units = candidates.filter((c) => c.passage === row.passage).sort((a, b) => a.position - b.position);
  const years = units.filter((c) => c.kind === 'columns' && c.position < row.position);
  if (years.length > 0) return years.at(-1)!.text;
  let first = units.indexOf(row);
  while (first > 0 && units[first - 1].kind === 'row') first--;
  const above = units[first - 1];
  if (!above || /[.:;!?]$/.test(above.text)) return undefined;
  return namedColumns([above], units[first].text);
}

/**
 * The row's figure under the one column of a header read by columns whose words the question all holds ("… for
 * current receivables" of "Current | 0 to 30 days past due | … | Total"): "Current: 23,762".
 */
export function figureForNamedColumn(row: string, header: string | undefined, question: string): string | undefined {
  const cells = header === undefined ? undefined : headerCells(header);
  const figures = splitRow(row).cells;
  if (!cells || cells.length !== figures.length) return undefined;
  const asked = new Set(termKeys(question));
  const named = cells.flatMap((cell, k) => {
    const keys = termKeys(cell);
    return keys.length > 0 && keys.every((key) => asked.has(key)) ? [k] : [];
  });
  return named.length === 1 ? `${cells[named[0]]}: ${figures[named[0]]}` : undefined;
}

/** The row's last figure when its header's last column is the total ("Totals: 146,982"). */
export function figureForTotal(row: string, header: string | undefined): string | undefined {
  const last = header?.split(' ').at(-1);
  const cell = splitRow(row).cells.at(-1);
  return last && cell && /^totals?$/i.test(last) ? `${last}: ${cell}` : undefined;
}

/**
 * The row's figure in the column of the given year, when the header's years and the row's figures line up one to
 * one: "2018: (1,577)".
 */
export function figureForYear(row: string, header: string | undefined, year: number | undefined, others: readonly number[] = []): string | undefined {
  // Each year the question asks ("in 2020 and 2018 respectively"), in its order, when the row has them all.
  const each = [...new Set(others.length >= 2 ? others : [year])].map((y) => ({ y, cell: cellForYear(row, header, y) }));
  if (each.length >= 2 && each.every(({ cell }) => cell !== undefined)) return each.map(({ y, cell }) => `${y}: ${cell}`).join('; ');
  const cell = cellForYear(row, header, year);
  return cell === undefined ? undefined : `${year}: ${cell}`;
}

/** The row's cell in the column of the given year ("(1,577)"), when the header's years and the row's figures line up. */
export function cellForYear(row: string, header: string | undefined, year: number | undefined): string | undefined {
  if (!header || year === undefined) return undefined;
  const years: string[] = header.match(/\b(19|20)\d\d\b/g) ?? [];
  if (years.length === 0) return undefined;
  const cells = splitRow(row).cells.map((cell) => cell.replace(/\$/g, ''));
  const column = years.indexOf(String(year));
  if (column < 0 || cells.length !== years.length) return undefined;
  return cells[column];
}
