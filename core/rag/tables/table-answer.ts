/**
 * A question about a figure answered from table cells: the row whose label best names what is asked (its words
 * weighted by how rare they are among the tables' labels), the column of the period asked (else the latest), and the
 * arithmetic the question asks for computed from the cells ("(8,985 − 6,476) / 6,476 = 38.71%"). The answer's first
 * line states the figure with its label, period and unit; the rows it used are its quotes.
 */
import { termKey, wordTokens } from '../text.js';
import { formatNumber, withUnit, type Figure, type TableUnit } from './figures.js';
import { compute, type Computed, type TableOperation } from './table-arithmetic.js';
import type { GridColumn, GridRow, TableGrid } from './table-grid.js';
import { FUNCTION_WORDS, keysOf, type TableAnswer, type TableCell } from './table-cells.js';
import { OPERATION_WORDS, operationAsked, TABLE_INTENTS, type TableIntent } from './table-intents.js';
import { comparisonAsked, comparisonLine, periodsMeeting, type PeriodComparison } from './period-comparison.js';
import { asksStructure, structureAnswer } from './table-structure.js';

export type { TableAnswer, TableCell } from './table-cells.js';
export { keysOf } from './table-cells.js';

/** A row must hold at least this share (by weight) of the words asked, and its label be at least this much words asked. */
const MIN_RECALL = 0.5;
const MIN_PRECISION = 0.5;
const YEAR = /\b(?:19|20)\d\d\b/g;
/** The precision a label opening with the words asked counts as (below an even match's 1: that one wins a tie). */
const OPENING_PRECISION = 0.9;
/** What words asked side by side and standing so in a label add to its match (a tie-breaker between rows of the same words). */
const ADJACENCY_WEIGHT = 0.1;

/**
 * The answer the tables give to the question, or undefined when no row names what it asks well enough, or the cells
 * the operation needs are not there.
 */
export function answerFromTables(question: string, grids: readonly TableGrid[], intents: readonly TableIntent[] = TABLE_INTENTS): TableAnswer | undefined {
  if (grids.length === 0) return undefined;
  // "Which years does the table show?", "What are the items under deferred tax liabilities?": the table's shape.
  const shape = structureAnswer(question, grids);
  if (shape || asksStructure(question)) return shape; // none found: no figure of a row answers it either
  const shared = labelsShared(grids);
  // "In which year was X larger?", "How many years did X exceed 1,500?": one row's periods compared.
  const comparison = comparisonAsked(question);
  if (comparison) {
    const compared = bestRow(question, grids, labelWeights(grids));
    return compared && comparisonAnswer(comparison, compared, shared);
  }
  const operation = operationAsked(question, intents);
  const years = yearsAsked(question);
  const weigh = labelWeights(grids);
  const twoRows = operation === 'difference' || operation === 'ratio' || operation === 'share';
  const phrases = twoRows ? twoPhrases(question, operation) : undefined;
  if (phrases) {
    const pair = rowPair(phrases, grids, weigh);
    if (pair) return twoRowAnswer(operation, pair[0], pair[1], years, shared);
  }
  // One row: a lookup, or an operation over its periods (a difference "between 2019 and 2018" of one row is a change).
  const match = bestRow(question, grids, weigh);
  if (!match) return undefined;
  // Two rows asked of and only one found: one of its figures is no answer, unless the row prints the share itself.
  if (phrases && !(operation === 'share' && match.row.figures.some((f) => f?.percent))) return undefined;
  const single = operation === 'difference' ? 'change' : operation === 'ratio' || operation === 'share' ? 'lookup' : operation;
  return periodAnswer(single, match, years, shared);
}

/** The years a question names, in its order; a range ("2015 to 2019", "2017-2019", "between 2017 and 2019") with each year in it. */
function yearsAsked(question: string): number[] {
  const ranged = question.replace(/\b((?:19|20)\d\d)\s*(?:-|–|to|through)\s*((?:19|20)\d\d)\b/g, (whole, from: string, to: string) => {
    const [a, b] = [Number(from), Number(to)];
    if (b <= a || b - a > 10 || !/\b(?:average|mean|sum|total|combined)\b/i.test(question)) return whole;
    return Array.from({ length: b - a + 1 }, (_, i) => a + i).join(' ');
  });
  return [...new Set((ranged.match(YEAR) ?? []).map(Number))];
}

interface RowMatch {
  grid: TableGrid;
  row: GridRow;
  confidence: number;
}

/** Weights of label words: rare words (inventories) weigh more than words heading many rows (total, net). */
function labelWeights(grids: readonly TableGrid[]): (key: string) => number {
  const df = new Map<string, number>();
  let rows = 0;
  for (const grid of grids) {
    for (const row of grid.rows) {
      rows++;
      for (const key of new Set(labelKeys(row))) df.set(key, (df.get(key) ?? 0) + 1);
    }
  }
  return (key) => Math.log(1 + rows / (df.get(key) ?? 0.5));
}

/** A label's words, its note references left out ("(see Note 13)", "(1)"); a total row without a label is its section's. */
function labelKeys(row: GridRow): string[] {
  return keysOf((row.label || row.section || '').replace(NOTE_REFERENCE, ' '));
}
const NOTE_REFERENCE = /\((?:see\s+)?(?:note|notes)\s+[\w.]+\)|\(\d+\)/gi;

/** Share of the asked words' neighbouring pairs that stand side by side in the label too ("net income" in "Consolidated Net Income"). */
function adjacency(asked: string[], label: string[]): number {
  if (asked.length < 2) return 0;
  const pairs = new Set(label.slice(1).map((k, i) => `${label[i]} ${k}`));
  let found = 0;
  for (let i = 1; i < asked.length; i++) if (pairs.has(`${asked[i - 1]} ${asked[i]}`)) found++;
  return found / (asked.length - 1);
}

/** The row best named by the phrase: weighted recall of the phrase's words that any label holds, times the label's precision. */
function bestRow(phrase: string, grids: readonly TableGrid[], weigh: (key: string) => number, except?: GridRow): RowMatch | undefined {
  const known = new Set(grids.flatMap((g) => g.rows.flatMap((r) => [...labelKeys(r), ...(r.section ? keysOf(r.section) : [])])));
  const asked = [...new Set(wordTokens(phrase).filter((w) => !OPERATION_WORDS.has(w) && !FUNCTION_WORDS.has(w)).map(termKey))].filter((k) => known.has(k));
  if (asked.length === 0) return undefined;
  const sum = (keys: string[]) => keys.reduce((s, k) => s + weigh(k), 0);
  const askedWeight = sum(asked);
  let best: RowMatch | undefined;
  for (const grid of grids) {
    for (const row of grid.rows) {
      if (row === except || row.figures.every((f) => f?.value === undefined)) continue;
      const ordered = labelKeys(row);
      const label = [...new Set(ordered)];
      const context = new Set([...label, ...(row.section ? keysOf(row.section) : []), ...(grid.title ? keysOf(grid.title) : [])]);
      const recall = sum(asked.filter((k) => context.has(k))) / askedWeight;
      // A label that opens with every word asked, in order, names it with a qualifier ("Indemnification receivable
      // from …"): as sure as an even match.
      const opens = asked.length >= 2 && asked.every((k, i) => ordered[i] === k);
      const even = label.length > 0 ? sum(label.filter((k) => asked.includes(k))) / sum(label) : 0;
      const precision = opens ? Math.max(even, OPENING_PRECISION) : even;
      if (recall < MIN_RECALL || precision < MIN_PRECISION) continue;
      const confidence = recall * (0.5 + precision / 2) + ADJACENCY_WEIGHT * adjacency(asked, ordered);
      if (!best || confidence > best.confidence) best = { grid, row, confidence };
    }
  }
  return best;
}

/**
 * The rows two phrases name, in one table and not the same row: each phrase's best row tried first and the other's
 * best beside it, the pair with the surer matches kept ("Swiss income" of "total income before taxes" is not the
 * total's row, though its words are the total's too).
 */
function rowPair(phrases: [string, string], grids: readonly TableGrid[], weigh: (key: string) => number): [RowMatch, RowMatch] | undefined {
  const pairs: [RowMatch, RowMatch][] = [];
  const first = bestRow(phrases[0], grids, weigh);
  const second = first && bestRow(phrases[1], [first.grid], weigh, first.row);
  if (first && second) pairs.push([first, second]);
  const other = bestRow(phrases[1], grids, weigh);
  const itsFirst = other && bestRow(phrases[0], [other.grid], weigh, other.row);
  if (other && itsFirst) pairs.push([itsFirst, other]);
  return pairs.sort((a, b) => b[0].confidence + b[1].confidence - (a[0].confidence + a[1].confidence))[0];
}

/** The two rows' phrases of a two-row question: "difference between A and B", "ratio of A to B", "what percentage of B is A". */
function twoPhrases(question: string, operation: TableOperation): [string, string] | undefined {
  const q = question.replace(/\?$/, '');
  if (operation === 'share') {
    const ofWhole = /(?:percentage|proportion|share|fraction|percent|%)\s+of\s+(?:the\s+)?(?:total\s+)?(.+?)\s+(?:is|was|are|were|does|did|came from|comes from|is made up of|consists? of)\s+(.+)/i.exec(q);
    if (ofWhole) return [ofWhole[2], ofWhole[1]];
    const asShare = /(.+?)\s+as\s+an?\s+(?:percentage|proportion|share|fraction|%)\s+of\s+(.+)/i.exec(q);
    if (asShare) return [asShare[1], asShare[2]];
    const within = /(?:proportion|share|percentage|percent|fraction)\s+of\s+(?:the\s+)?(.+?)\s+(?:in|to|of|within|out of|from|among|over)\s+(?:the\s+)?(.+)/i.exec(q);
    return within ? [within[1], within[2]] : undefined;
  }
  const pair = operation === 'ratio' ? /(?:ratio\s+(?:of|between)\s+)?(.+?)\s+(?:to|and|divided by|over)\s+(.+)/i : /(?:between|of)\s+(.+?)\s+and\s+(.+)/i;
  const match = pair.exec(q.replace(/^.*?\b(?:ratio|difference)\b\s*(?:(?:of|between|in)\s+)?/i, operation === 'ratio' ? '' : 'between '));
  if (!match) return undefined;
  // "between 2019 and 2018": periods, not rows.
  if (!/\p{L}{3}/u.test(match[1].replace(YEAR, '')) || !/\p{L}{3}/u.test(match[2].replace(YEAR, ''))) return undefined;
  return [match[1], match[2]];
}

/** A column by year: the first whose header names it. */
function columnOf(grid: TableGrid, year: number): number {
  // Every column of one year (quarters, dates within it) does not tell which: none. Two groups of the same years
  // ("2019 2018 2019 2018": sales, then costs) read the first.
  const years = grid.columns.flatMap((c) => (c.year !== undefined ? [c.year] : []));
  if (years.length >= 2 && new Set(years).size === 1) return -1;
  return grid.columns.findIndex((c) => c.year === year);
}

/** The columns by year, latest first (those with a figure in the row). */
function yearColumns(grid: TableGrid, row: GridRow): number[] {
  return grid.columns
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.year !== undefined && cell({ grid, row, confidence: 0 }, i) !== undefined)
    .sort((a, b) => b.c.year! - a.c.year! || a.i - b.i)
    .map(({ i }) => i);
}

function cell(match: RowMatch, column: number): TableCell | undefined {
  const at = figureIndex(match, column);
  const value = at === undefined ? undefined : match.row.figures[at]?.value;
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
function figureIndex(match: RowMatch, column: number): number | undefined {
  const named = match.grid.columns.filter((c) => c.label !== '').length;
  const figures = match.row.figures;
  if (named === 0 || figures.length === named) return column;
  const note = figures[0];
  if (figures.length === named + 1 && note?.value !== undefined && Number.isInteger(note.value) && note.value > 0 && note.value < 100 && !note.text.includes(',')) return column + 1;
  // More figures than the header names: percentages beside the amounts ("$11,510 4% 6% $11,065" under "2019 Actual
  // Constant 2018"). The years' columns take the amounts, in order, when there are as many.
  // Else, years heading the header ("2019 2018 Change") head the row's first figures.
  const years = match.grid.columns.flatMap((c, i) => (c.year !== undefined ? [i] : []));
  const amounts = figures.flatMap((f, i) => (f && !f.percent ? [i] : []));
  const k = years.indexOf(column);
  if (figures.length <= named || k < 0) return undefined;
  if (amounts.length === years.length) return amounts[k];
  return years.every((at, i) => at === i) ? column : undefined;
}

/** A lookup, change, percent change, sum or average of one row over periods. */
function periodAnswer(operation: TableOperation, match: RowMatch, years: number[], shared: Set<string>): TableAnswer | undefined {
  const byYear = yearColumns(match.grid, match.row);
  let columns: number[];
  if (operation === 'lookup') {
    const asked = years.map((y) => columnOf(match.grid, y)).filter((i) => i >= 0);
    columns = asked.length > 0 ? [asked[0]] : byYear.length > 0 ? [byYear[0]] : match.row.figures.length === 1 ? [0] : [];
  } else if (operation === 'change' || operation === 'percent-change') {
    // From the earlier period to the later: the two asked, or the one asked and the period before it, or the latest two.
    const asked = years.map((y) => columnOf(match.grid, y)).filter((i) => i >= 0);
    const later = asked.length > 0 ? asked.reduce((a, b) => (match.grid.columns[a].year! >= match.grid.columns[b].year! ? a : b)) : byYear[0];
    const earlier = asked.length >= 2 ? asked.reduce((a, b) => (match.grid.columns[a].year! <= match.grid.columns[b].year! ? a : b)) : byYear[byYear.indexOf(later) + 1];
    columns = later !== undefined && earlier !== undefined && later !== earlier ? [earlier, later] : [];
  } else {
    const asked = years.map((y) => columnOf(match.grid, y)).filter((i) => i >= 0);
    columns = asked.length >= 2 ? asked : asked.length === 0 ? byYear : [];
  }
  const cells = columns.map((c) => cell(match, c));
  if (cells.length === 0 || cells.some((c) => c === undefined)) return undefined;
  const used = cells as TableCell[];
  const label = rowName(match.row, shared);
  const unit = unitOf(match);
  const decimalsOf = (c: TableCell) => match.row.figures[figureIndex(match, match.grid.columns.indexOf(c.column)) ?? 0]?.decimals ?? 0;
  if (operation === 'lookup') {
    // Several periods asked of one row ("in 2019 and 2018 respectively"): each, in the order asked.
    const asked = years.map((y) => columnOf(match.grid, y)).filter((i) => i >= 0).map((c) => cell(match, c));
    const shown = asked.length >= 2 && asked.every((c) => c !== undefined) ? (asked as TableCell[]) : used;
    // As printed: "$1,095.0 million" keeps its decimal.
    const figures = shown.map((c) => `${c.column.label ? `${c.column.label}: ` : ''}${withUnit(c.value, unit, { decimals: decimalsOf(c), keepDecimals: true })}`);
    return { line: `${label}${figures.length === 1 && !figures[0].includes(': ') ? ': ' : ', '}${figures.join('; ')}`, operation, cells: shown, confidence: match.confidence };
  }
  const computed = compute(operation, used.map((c) => c.value), Math.max(...used.map(decimalsOf)));
  if (!computed) return undefined;
  const periods = used.map((c) => c.column.label || '');
  const value = withUnit(computed.value, unit, { percent: computed.percent || unit?.percent });
  let line = `${OPERATION_NAMES[operation]} ${label}${periodsText(operation, periods)}: ${value} (${computed.trace})`;
  // A change of a percentage is asked in points as often as relative to the earlier: both, points first.
  const points = unit?.percent && operation === 'percent-change' ? compute('change', used.map((c) => c.value), Math.max(...used.map(decimalsOf))) : undefined;
  if (points) line = `Change in ${label}${periodsText(operation, periods)}: ${formatNumber(points.value)} percentage points (${points.trace}), a relative change of ${formatNumber(computed.value)}% (${computed.trace})`;
  return { line, operation, cells: used, computed, confidence: match.confidence };
}

/** The periods of one row that meet a comparison, or how many do, with every period's figure. */
function comparisonAnswer(comparison: PeriodComparison, match: RowMatch, shared: Set<string>): TableAnswer | undefined {
  const cells = yearColumns(match.grid, match.row).flatMap((c) => cell(match, c) ?? []);
  if (cells.length < 2) return undefined;
  const figures = cells.map((c) => ({ period: c.column.label || String(c.column.year), value: c.value }));
  const met = periodsMeeting(comparison, figures);
  if (comparison.asks === 'which' && met.length === 0) return undefined;
  const line = comparisonLine(comparison, rowName(match.row, shared), figures, met);
  return { line, operation: comparison.asks === 'count' ? 'count' : 'compare', cells, confidence: match.confidence };
}

/** A difference, ratio or share of two rows in one period (the one asked, else the latest). */
function twoRowAnswer(operation: TableOperation, first: RowMatch, second: RowMatch, years: number[], shared: Set<string>): TableAnswer | undefined {
  const grid = first.grid;
  const column = years.length > 0 ? columnOf(grid, years[0]) : yearColumns(grid, first.row)[0] ?? 0;
  const a = column >= 0 ? cell(first, column) : undefined;
  const b = column >= 0 ? cell(second, column) : undefined;
  if (!a || !b) return undefined;
  const computed = compute(operation, [a.value, b.value]);
  if (!computed) return undefined;
  const unit = operation === 'difference' ? unitOf(first) : undefined;
  const period = a.column.label ? `, ${a.column.label}` : '';
  const what = operation === 'share' ? `${rowName(first.row, shared)} as a share of ${(rowName(second.row, shared))}` : `${OPERATION_NAMES[operation]} ${(rowName(first.row, shared))} and ${(rowName(second.row, shared))}`;
  const value = withUnit(computed.value, unit, { percent: computed.percent });
  return { line: `${what}${period}: ${value} (${computed.trace})`, operation, cells: [a, b], computed, confidence: Math.min(first.confidence, second.confidence) };
}

const OPERATION_NAMES: Record<TableOperation, string> = {
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

function periodsText(operation: TableOperation, periods: string[]): string {
  const named = periods.filter(Boolean);
  if (named.length === 0) return '';
  if (operation === 'change' || operation === 'percent-change') return ` from ${named[0]} to ${named.at(-1)}`;
  return `, ${named.length === 2 ? `${named[0]} and ${named[1]}` : named.join(', ')}`;
}

/** The row's name as an answer states it: its label, with its section where one stands above it ("North America (Sales)"). */
/** Labels that more than one row of the tables prints need their section to be told apart. */
function rowName(row: GridRow, shared: Set<string>): string {
  const label = sentenceCase(row.label.replace(/\s*\(\d+\)$/, '').trim()) || (row.section ? sentenceCase(row.section) : 'Row');
  return row.section && row.label && shared.has(labelText(row)) ? `${label} (${sentenceCase(row.section)})` : label;
}

const labelText = (row: GridRow) => row.label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

function labelsShared(grids: readonly TableGrid[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const row of grids.flatMap((g) => g.rows)) (seen.has(labelText(row)) ? shared : seen).add(labelText(row));
  return shared;
}

/**
 * The unit of the row's figures: percent when it prints them all so; the table's currency but not its scale when the
 * label says the figure is per something, a rate, a ratio or a count ("Dividends per share" in a table "in thousands").
 */
function unitOf(match: RowMatch): TableUnit | undefined {
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
