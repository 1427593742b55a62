/**
 * Answers read by columns: a row's cells under columns a question names by their words, a column down its rows, and
 * the same row across tables of one period each ("December 31, 2019" and "… 2018" blocks under one header).
 */
import { termKey, wordTokens } from '../text.js';
import { withUnit } from './figures.js';
import { compute, type TableOperation } from './table-arithmetic.js';
import type { TableGrid } from './table-grid.js';
import { keysOf, type TableAnswer, type TableCell } from './table-cells.js';
import { isTotal } from './item-comparison.js';
import { cell, figureIndex, labelKeys, OPERATION_NAMES, periodsText, rowName, unitOf, type RowMatch } from './cell-reading.js';

/**
 * The columns a question names by their words, in the order it names them: those without a year whose label's words
 * it holds at least half of, the fuller match first where two share a word ("unrealized gains" is not "Unrealized
 * Losses"). None when the table's columns name years, or a column's words are the row's too.
 */
export function namedColumns(question: string, grid: TableGrid): number[] {
  if (grid.columns.some((c) => c.year !== undefined)) return [];
  const asked = [...wordTokens(question).map(termKey).filter((k) => !/^\d/.test(k)), ...numbersOf(question)];
  const scored = grid.columns.flatMap((column, i) => {
    // Its words, and its numbers as written ("1-3 Years" is named by "1-3", not by "years" alone).
    const keys = [...new Set([...keysOf(column.label).filter((k) => !/^\d/.test(k)), ...numbersOf(column.label)])];
    const held = keys.filter((k) => asked.includes(k));
    if (keys.length === 0 || held.length / keys.length < 0.5) return [];
    return [{ i, score: held.length / keys.length, at: Math.min(...held.map((k) => asked.indexOf(k))), keys: held }];
  });
  // A word shared by two named columns goes to the one that holds more of the question's words, or more words the
  // question names ("more than 5 years" names "More Than 5 Years", not "1-3 Years").
  const kept = scored.filter((c) => !scored.some((o) => o !== c && (o.score > c.score || o.keys.length > c.keys.length) && c.keys.every((k) => o.keys.includes(k))));
  return kept.sort((a, b) => a.at - b.at).map((c) => c.i);
}

/** The numbers and ranges a text writes ("1-3", "5", "2 – 4" as "2-4"), years aside. */
function numbersOf(text: string): string[] {
  return [...text.matchAll(/\d+(?:[.,]\d+)?(?:\s*[-–]\s*\d+(?:[.,]\d+)?)?/g)].map((m) => m[0].replace(/\s+/g, '').replace('–', '-')).filter((n) => !/^(?:19|20)\d\d$/.test(n));
}

/** One row's figure under a column named by words, or an operation of that figure alone (a look-up). */
export function columnAnswer(operation: TableOperation, match: RowMatch, columns: readonly number[], shared: Set<string>): TableAnswer | undefined {
  if (operation !== 'lookup') return undefined;
  const found = columns.map((column) => cell(match, column));
  if (found.length === 0 || found.some((c) => c === undefined)) return undefined;
  const shown = (found as TableCell[]).map((c, k) => {
    const decimals = match.row.figures[figureIndex(match, columns[k]) ?? 0]?.decimals ?? 0;
    return `${c.column.label}: ${withUnit(c.value, unitOf(match), { decimals, keepDecimals: true })}`;
  });
  return { line: `${rowName(match.row, shared)}, ${shown.join('; ')}`, operation, cells: found as TableCell[], confidence: match.confidence };
}

/**
 * An operation over the periods asked when each period is a table of its own under one header: the row of the same
 * label in each, under the column named (or the only one), earlier period first.
 */
export function acrossPeriodTables(operation: TableOperation, match: RowMatch, years: number[], named: number[], grids: readonly TableGrid[], shared: Set<string>): TableAnswer | undefined {
  if (years.length < 2 || operation === 'ratio' || operation === 'share') return undefined;
  const used = periodTablesCells(match, named, grids).filter((c) => years.includes(c.grid.period!));
  if (used.length < 2 || used.length !== new Set(years).size) return undefined;
  const tables = used.map((c) => c.grid);
  const single = operation === 'difference' ? 'change' : operation;
  const computed = compute(single, used.map((c) => c.value));
  if (!computed) return undefined;
  const value = withUnit(computed.value, unitOf(match), { percent: computed.percent });
  const periods = tables.map((t) => String(t.period));
  const line = `${OPERATION_NAMES[single]} ${rowName(match.row, shared)}, ${used[0].column.label}${periodsText(single, periods)}: ${value} (${computed.trace})`;
  return { line, operation: single, cells: used, computed, confidence: match.confidence };
}

/**
 * The matched row's cell in each period's table under the same header (earliest first; a table broken over passages
 * is one per passage, the first holding the row counts), under the one column named, or the only one.
 */
export function periodTablesCells(match: RowMatch, named: readonly number[], grids: readonly TableGrid[]): TableCell[] {
  const column = named.length === 1 ? named[0] : match.grid.columns.length === 1 ? 0 : -1;
  if (match.grid.period === undefined || column < 0) return [];
  const periods = [...new Set(grids.flatMap((g) => (g.period !== undefined && g.header === match.grid.header ? [g.period] : [])))].sort((a, b) => a - b);
  return periods.flatMap((period) => grids.flatMap((grid) => {
    const row = grid.period === period && grid.header === match.grid.header ? grid.rows.find((r) => r.label === match.row.label && r.section === match.row.section) : undefined;
    return (row && cell({ grid, row, confidence: match.confidence }, column)) ?? [];
  }).slice(0, 1));
}

/** No row named: the one table found whose one column the question names ("the average low price for 2019"), down its rows. */
export function columnOfOneTable(operation: 'average' | 'sum', question: string, grids: readonly TableGrid[]): TableAnswer | undefined {
  if (grids.length !== 1) return undefined;
  const named = namedColumns(question, grids[0]);
  const first = grids[0].rows.find((r) => !isTotal(r.label) && r.label);
  return named.length === 1 && first ? columnDown(operation, { grid: grids[0], row: first, confidence: NO_ROW_CONFIDENCE }, named[0]) : undefined;
}

/** How sure an answer read down a column is when no row was named: as sure as a weak row match. */
const NO_ROW_CONFIDENCE = 0.5;

/** Whether the words of the question that name the matched row name every other item row of its table as well. */
export function namesEveryRow(question: string, match: RowMatch): boolean {
  const asked = new Set(keysOf(question));
  const naming = labelKeys(match.row).filter((k) => asked.has(k));
  const items = match.grid.rows.filter((r) => !isTotal(r.label) && r.label);
  return naming.length > 0 && items.length >= 2 && items.every((r) => naming.every((k) => labelKeys(r).includes(k)));
}

/** The sum or average of a column's cells down the table's item rows (its totals left out). */
export function columnDown(operation: 'average' | 'sum', match: RowMatch, column: number): TableAnswer | undefined {
  const rows = match.grid.rows.filter((r) => !isTotal(r.label) && r.label);
  const cells = rows.map((row) => cell({ ...match, row }, column));
  if (cells.some((c) => c === undefined)) return undefined;
  const used = cells as TableCell[];
  const computed = compute(operation, used.map((c) => c.value));
  if (!computed) return undefined;
  const value = withUnit(computed.value, unitOf(match), { percent: computed.percent });
  const period = match.grid.period ? ` (${match.grid.period})` : '';
  const line = `${OPERATION_NAMES[operation]} ${match.grid.columns[column].label}${period} of ${rows.map((r) => r.label).join(', ')}: ${value} (${computed.trace})`;
  return { line, operation, cells: used, computed, confidence: match.confidence };
}

/** The sum or average of one row's cells under the columns named by words ("… for A, B and C"). */
export function columnsTotal(operation: 'average' | 'sum', match: RowMatch, columns: number[], shared: Set<string>): TableAnswer | undefined {
  const cells = columns.map((c) => cell(match, c));
  if (cells.some((c) => c === undefined)) return undefined;
  const used = cells as TableCell[];
  const computed = compute(operation, used.map((c) => c.value));
  if (!computed) return undefined;
  const value = withUnit(computed.value, unitOf(match), { percent: computed.percent });
  const names = used.map((c) => c.column.label);
  const line = `${OPERATION_NAMES[operation]} ${rowName(match.row, shared)}, ${names.slice(0, -1).join(', ')} and ${names.at(-1)}: ${value} (${computed.trace})`;
  return { line, operation, cells: used, computed, confidence: match.confidence };
}

/** A difference, ratio, share or change between one row's cells under two columns named by words, in the order named. */
export function columnsAnswer(operation: TableOperation, match: RowMatch, columns: number[], shared: Set<string>): TableAnswer | undefined {
  const cells = columns.map((c) => cell(match, c));
  if (cells.some((c) => c === undefined)) return undefined;
  const [a, b] = cells as TableCell[];
  const computed = compute(operation, [a.value, b.value]);
  if (!computed) return undefined;
  const unit = operation === 'share' || operation === 'ratio' || operation === 'percent-change' ? undefined : unitOf(match);
  const value = withUnit(computed.value, unit, { percent: computed.percent || (unit?.percent ?? false) });
  const label = rowName(match.row, shared);
  const what = operation === 'share' ? `${label}, ${a.column.label} as a share of ${b.column.label}`
    : operation === 'change' || operation === 'percent-change' ? `${OPERATION_NAMES[operation]} ${label} from ${a.column.label} to ${b.column.label}`
      : `${OPERATION_NAMES[operation]} ${label}, ${a.column.label} and ${b.column.label}`;
  return { line: `${what}: ${value} (${computed.trace})`, operation, cells: [a, b], computed, confidence: match.confidence };
}
