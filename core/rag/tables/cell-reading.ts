/**
 * How a matched row's cells are read (which figure stands under which column, in which unit) and how an answer names
 * them: shared by the answers of one row (table-answer.ts) and those read by columns (column-answers.ts).
 */
import { headerCells } from '../layout.js';
import type { Figure, TableUnit } from './figures.js';
import type { TableOperation } from './table-arithmetic.js';
import type { GridRow, TableGrid } from './table-grid.js';
import { keysOf, type TableCell } from './table-cells.js';

export interface RowMatch {
  grid: TableGrid;
  row: GridRow;
  confidence: number;
}

/** A label's words, its note references left out ("(see Note 13)", "(1)"); a total row without a label is its section's. */
export function labelKeys(row: GridRow): string[] {
  return keysOf((row.label || row.section || '').replace(NOTE_REFERENCE, ' ').replace(BALANCE_DATE, ' '));
}

const NOTE_REFERENCE = /\((?:see\s+)?(?:note|notes)\s+[\w.]+\)|\(\d+\)/gi;

/**
 * When a balance is struck ("Goodwill, end of the year", "Balance at beginning of period"): a qualifier of the row, not
 * what it is. A label with it names what is asked as well as one without; the closing balance is the period's figure
 * unless the question asks for the opening one.
 */
export const BALANCE_DATE = /,?\s*(?:(?:at|as of)\s+)?(?:the\s+)?(beginning|start|end|close)\s+of\s+(?:the\s+)?(?:\p{L}+\s+)?(?:year|period)\b/giu;

/** The columns by year, latest first (those with a figure in the row). */
export function yearColumns(grid: TableGrid, row: GridRow): number[] {
  return grid.columns
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.year !== undefined && cell({ grid, row, confidence: 0 }, i) !== undefined)
    .sort((a, b) => b.c.year! - a.c.year! || a.i - b.i)
    .map(({ i }) => i);
}

export function cell(match: RowMatch, column: number): TableCell | undefined {
  const at = figureIndex(match, column);
  const figure = at === undefined ? undefined : match.row.figures[at];
  // A dash in a figure's place prints nil: none of it that period ("—"), not a figure unknown ("n/a", "nm").
  const value = figure && figure.value === undefined && /^[—–-]+$/.test(figure.text) ? 0 : figure?.value;
  const col = match.grid.columns[column];
  if (value === undefined || !col) return undefined;
  return { grid: match.grid, row: match.row, column: col, value };
}

/**
 * The row's figures under the grid's columns, left to right (undefined where it prints none for a column), or
 * undefined when they do not line up with the columns the header names: then only the row as printed tells.
 */
export function figuresByColumn(grid: TableGrid, row: GridRow): Array<Figure | undefined> | undefined {
  const match = { grid, row, confidence: 0 };
  const at = grid.columns.map((_, column) => figureIndex(match, column));
  if (at.some((i) => i === undefined)) return undefined;
  return at.map((i) => row.figures[i!]);
}

/**
 * Where the column's figure stands in the row: at the column's place when the row prints a figure for each column the
 * header names; after a note number when it prints one more, a small whole number ("Receivables 17 11,880 8,039");
 * undefined when they do not line up (a missing cell would shift the rest).
 */
export function figureIndex(match: RowMatch, column: number): number | undefined {
  const named = match.grid.columns.filter((c) => c.label !== '').length;
  const figures = match.row.figures;
  // A header read by the page's geometry has a column, named or not, for each figure.
  if (named === 0 || figures.length === named || (figures.length === match.grid.columns.length && headerCells(match.grid.header ?? ''))) return column;
  const note = figures[0];
  if (figures.length === named + 1 && note?.value !== undefined && Number.isInteger(note.value) && note.value > 0 && note.value < 100 && !note.text.includes(',')) return column + 1;
  // More figures than the header names: percentages beside the amounts ("$11,510 4% 6% $11,065" under "2019 Actual
  // Constant 2018"). The years' columns take the amounts, in order, when there are as many.
  // Else, years heading the header ("2019 2018 Change") head the row's first figures.
  const years = match.grid.columns.flatMap((c, i) => (c.year !== undefined ? [i] : []));
  const amounts = figures.flatMap((f, i) => (f && !f.percent ? [i] : []));
  const k = years.indexOf(column);
  // As many figures as years heading the header, of one kind, the other columns left blank ("Adjusted EBITA margin
  // 4.7 % 5.3 %" under "2019 | 2018 | Actual | % Change"): the years' figures. Of two kinds ("900 (10)%"), a year's
  // cell is missing and a change printed.
  const oneKind = new Set(figures.map((f) => Boolean(f?.percent))).size === 1;
  if (k >= 0 && oneKind && figures.length === years.length && figures.length < named && years.every((at, i) => at === i)) return column;
  // Fewer figures than columns, the years' amounts first and then what the row prints of their change, which agrees
  // with them ("Adjusted EBITA 482 483 0 %" under "2019 | 2018 | Actual | % Change"): a change column left blank.
  if (k >= 0 && figures.length < named && years.every((at, i) => at === i) && changeAgrees(figures, years.length)) return column;
  if (figures.length <= named || k < 0) return undefined;
  // Each column heads an amount and its shares ("2019 2018 Change" over "Amount % of total Amount % of total ($) (%)":
  // "64,798 9% 35,452 5% 29,346 83"): a year's figure is its group's first.
  const width = figures.length / named;
  if (Number.isInteger(width) && named >= 2 && amountsWithShares(figures, width)) return column * width;
  if (amounts.length === years.length) return amounts[k];
  return years.every((at, i) => at === i) ? column : undefined;
}

/**
 * Two years' amounts, then one or more figures each of which is their change as printed: the difference, or the
 * percentage change at its printed precision (within one unit of its last digit).
 */
function changeAgrees(figures: ReadonlyArray<Figure | undefined>, years: number): boolean {
  const [recent, earlier] = figures;
  if (years !== 2 || figures.length <= 2 || recent?.value === undefined || earlier?.value === undefined || recent.percent || earlier.percent) return false;
  return figures.slice(2).every((f) => {
    if (f?.value === undefined) return false;
    const unit = 10 ** -f.decimals;
    const change = f.percent ? (earlier.value !== 0 ? ((recent.value! - earlier.value!) / Math.abs(earlier.value!)) * 100 : NaN) : recent.value! - earlier.value!;
    return Math.abs(Math.abs(change) - Math.abs(f.value)) <= unit;
  });
}

/** Figures in groups of `width`, each an amount followed by shares of it (a percentage, or a number up to 100). */
function amountsWithShares(figures: ReadonlyArray<Figure | undefined>, width: number): boolean {
  return figures.every((f, i) => {
    if (i % width === 0) return !f?.percent;
    return f === undefined || f.value === undefined || f.percent || Math.abs(f.value) <= 100;
  });
}

export const OPERATION_NAMES: Record<TableOperation, string> = {
  lookup: '',
  change: 'Change in',
  'percent-change': 'Percentage change in',
  average: 'Average',
  sum: 'Sum of',
  difference: 'Difference between',
  ratio: 'Ratio of',
  share: 'Share of',
  count: '',
  compare: '',
  periods: '',
  items: '',
};

export function periodsText(operation: TableOperation, periods: string[]): string {
  const named = periods.filter(Boolean);
  if (named.length === 0) return '';
  if (operation === 'change' || operation === 'percent-change') return ` from ${named[0]} to ${named.at(-1)}`;
  return `, ${named.length === 2 ? `${named[0]} and ${named[1]}` : named.join(', ')}`;
}

/** The row's name as an answer states it: its label, with its section where one stands above it ("North America (Sales)"). */
/** Labels that more than one row of the tables prints need their section to be told apart. */
export function rowName(row: GridRow, shared: Set<string>): string {
  const label = sentenceCase(row.label.replace(/\s*\(\d+\)$/, '').trim()) || (row.section ? sentenceCase(row.section) : 'Row');
  return row.section && row.label && shared.has(labelText(row)) ? `${label} (${sentenceCase(row.section)})` : label;
}

const labelText = (row: GridRow) => row.label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export function labelsShared(grids: readonly TableGrid[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const row of grids.flatMap((g) => g.rows)) (seen.has(labelText(row)) ? shared : seen).add(labelText(row));
  return shared;
}

/**
 * The unit of the row's figures: percent when it prints them all so; the table's currency but not its scale when the
 * label says the figure is per something, a rate, a ratio or a count ("Dividends per share" in a table "in thousands").
 */
export function unitOf(match: RowMatch): TableUnit | undefined {
  // Percentages beside amounts ("2,493 2,433 2.5%": a change column) leave the amounts in the table's unit.
  const printed = match.row.figures.filter((f) => f?.value !== undefined);
  const rowPercent = printed.length > 0 && printed.every((f) => f!.percent);
  if (rowPercent) return { multiplier: 1, percent: true };
  const unit = match.grid.unit;
  const label = match.row.label || match.row.section || '';
  if (unit && UNSCALED.test(label)) return unit.currency && /\bper\b/i.test(label) ? { multiplier: 1, currency: unit.currency } : undefined;
  return unit;
}

const UNSCALED = /\bper\b|\brate\b|\bratio\b|\bmargin\b|%|\bpercent|\bdays\b|\bnumber of\b|\bheadcount\b|\bemployees\b/i;

function sentenceCase(text: string): string {
  return text === text.toUpperCase() ? text.charAt(0) + text.slice(1).toLowerCase() : text;
}
