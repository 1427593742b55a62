/**
 * A question about a figure answered from table cells: the row whose label best names what is asked (its words
 * weighted by how rare they are among the tables' labels), the column of the period asked (else the latest), and the
 * arithmetic the question asks for computed from the cells ("(8,985 − 6,476) / 6,476 = 38.71%"). The answer's first
 * line states the figure with its label, period and unit; the rows it used are its quotes.
 */
import { headerCells, YEAR } from '../layout.js';
import { termKey, wordTokens } from '../text.js';
import { formatNumber, withUnit } from './figures.js';
import { compute, type TableOperation } from './table-arithmetic.js';
import { SHORT_YEAR, SPLIT_YEAR, yearOf, type GridColumn, type GridRow, type TableGrid } from './table-grid.js';
import { FUNCTION_WORDS, keysOf, type TableAnswer, type TableCell } from './table-cells.js';
import { BALANCE_DATE, cell, figureIndex, labelKeys, labelsShared, OPERATION_NAMES, periodsText, rowName, unitOf, yearColumns, type RowMatch } from './cell-reading.js';
import { acrossPeriodTables, columnAnswer, columnOfOneTable, columnsAnswer, columnsTotal, columnDown, namedColumns, namesEveryRow, periodTablesCells } from './column-answers.js';
import { OPERATION_WORDS, operationAsked, TABLE_INTENTS, type TableIntent } from './table-intents.js';
import { comparisonAsked, comparisonLine, inTableUnit, periodsMeeting, type PeriodComparison } from './period-comparison.js';
import { asksStructure, sectionNamed, structureAnswer } from './table-structure.js';
import { isTotal, itemComparisonAsked } from './item-comparison.js';
import { labelsKeptWhole, labelsWritten, listedPhrases, lookedUpPhrases, respectivePhrases, twoPhrases } from './question-phrases.js';

export type { TableAnswer, TableCell } from './table-cells.js';
export { figuresByColumn } from './cell-reading.js';
export { keysOf } from './table-cells.js';

/** A row must hold at least this share (by weight) of the words asked, and its label be at least this much words asked. */
const MIN_RECALL = 0.5;
const MIN_PRECISION = 0.5;
/** The precision a label opening with the words asked counts as (below an even match's 1: that one wins a tie). */
const OPENING_PRECISION = 0.9;
/** What words asked side by side and standing so in a label add to its match (a tie-breaker between rows of the same words). */
const ADJACENCY_WEIGHT = 0.1;
/**
 * What a label the question writes out whole, small words and all, adds: between rows of the same words it is the one
 * asked ("Amounts owed to members" against "Amounts owed by members").
 */
const WHOLE_LABEL_WEIGHT = 0.01;

function writtenWhole(label: string, phrase: string): boolean {
  const words = (text: string) => ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
  return label.includes(' ') && words(phrase).includes(words(label));
}

/**
 * The answer the tables give to the question, or undefined when no row names what it asks well enough, or the cells
 * the operation needs are not there.
 */
export function answerFromTables(question: string, tables: readonly TableGrid[], intents: readonly TableIntent[] = TABLE_INTENTS): TableAnswer | undefined {
  let grids = tables;
  if (grids.length === 0) return undefined;
  // "Which years does the table show?", "What are the items under deferred tax liabilities?": the table's shape.
  const shape = structureAnswer(question, grids);
  if (shape || asksStructure(question)) return shape; // none found: no figure of a row answers it either
  const shared = labelsShared(grids);
  // "In which year was X larger?", "How many years did X exceed 1,500?": one row's periods compared.
  const comparison = comparisonAsked(question);
  if (comparison) {
    const compared = bestRow(question, grids, labelWeights(grids));
    // Periods as a table's rows ("First Quarter" …) or columns named by words: its items compared.
    return (compared && comparisonAnswer(comparison, compared, shared, question, grids)) ?? itemsAnswer(comparison, question, grids, shared);
  }
  // "In which segment …  the largest?", "Which component is the greatest in …?": a table's items compared.
  const items = itemComparisonAsked(question);
  if (items) return itemsAnswer(items, question, grids, shared);
  const operation = operationOf(question, grids, intents);
  const years = yearsAsked(question);
  // Tables of one period each ("Range 2018" over "Low High"): those of the year asked.
  const ofYear = grids.filter((g) => g.period === undefined || years.length === 0 || years.includes(g.period));
  if (ofYear.length < grids.length && ofYear.length > 0) grids = ofYear;
  const weigh = labelWeights(grids);
  const twoRows = operation === 'difference' || operation === 'ratio' || operation === 'share';
  // Labels the question writes out whole keep their own "and", "for", "to" and commas ("the sum of Land and Buildings
  // and Plant", "Assets held for sale and …", "the ratio of Adjustments to prior periods to …"), and a total its
  // "Total" ("the percentage of Total cost of goods sold" is not of "Cost of goods sold").
  const { text: guarded, restore } = labelsKeptWhole(question, grids);
  const phrases = twoRows ? restore(twoPhrases(guarded, operation)) : undefined;
  if (phrases) {
    const pair = rowPair(phrases, grids, weigh);
    if (pair && !totalOfSameRow(phrases[1], pair)) return twoRowAnswer(operation, pair[0], pair[1], years, shared, namedColumns(question, pair[0].grid)[0]);
  }
  // Rows listed for a sum or an average ("the sum of A and B in 2019", "the average of A, B and C"): one period's cells.
  const listed = restore(operation === 'sum' || operation === 'average' ? listedPhrases(guarded) : operation === 'lookup' ? respectivePhrases(guarded) : undefined);
  const rows = listed && listedRows(listed, grids, weigh);
  if (rows) return rowsAnswer(operation, rows, years, shared);
  // One row: a lookup, or an operation over its periods (a difference "between 2019 and 2018" of one row is a change).
  const match = ofYearAsked(bestRow(question, grids, weigh), years, (dated) => bestRow(question, dated, weigh), grids);
  // "What were A and B in 2019?": each row's figure, when each names its row surely and no less surely than the whole
  // question names one ("the sales and marketing expenses" reads "Sales & marketing", not "Net sales" and it).
  const both = operation === 'lookup' && years.length <= 1 ? restore(lookedUpPhrases(guarded)) : undefined;
  const each = both && listedRows(both, grids, weigh);
  const sure = each && each.every((r) => r.confidence >= SURE_ROW && r.confidence >= (match?.confidence ?? 0));
  if (sure) return rowsAnswer(operation, each, years, shared);
  if (!match) return operation === 'average' || operation === 'sum' ? columnOfOneTable(operation, question, grids) : undefined;
  if (datedOtherwise(match, years)) return undefined;
  // Columns named by words ("the low and high price", "current … out of total …"): the row's cells under them.
  const named = namedColumns(question, match.grid);
  // Tables of one period each ("December 31, 2019" and "… 2018" under one header): the row's cell in each period's.
  const across = operation !== 'lookup' ? acrossPeriodTables(operation, match, years, named, grids, shared) : undefined;
  if (across) return across;
  if (named.length === 2 && operation !== 'lookup' && operation !== 'average' && operation !== 'sum') return columnsAnswer(operation, match, named, shared);
  if (named.length >= 2 && (operation === 'average' || operation === 'sum')) return columnsTotal(operation, match, named, shared);
  // "The average quarterly low price for 2019": a column named, and the row's words in every row ("… Quarter").
  if (named.length === 1 && (operation === 'average' || operation === 'sum') && namesEveryRow(question, match)) return columnDown(operation, match, named[0]);
  // A look-up of several columns named with "and" ("the high and low prices …") reads each; else the one named best.
  if (named.length >= 1 && !phrases) return columnAnswer(operation, match, /\band\b|\brespectively\b/i.test(question) ? named : named.slice(0, 1), shared);
  // Two rows asked of and only one found: one of its figures is no answer, unless the row prints the share itself.
  if (phrases && !(operation === 'share' && match.row.figures.some((f) => f?.percent))) return undefined;
  const single = operation === 'difference' ? 'change' : operation === 'ratio' || operation === 'share' ? 'lookup' : operation;
  return periodAnswer(single, match, years, shared, wordTokens(question).map(termKey), SINCE_YEAR.exec(question)?.[1]);
}
/**
 * The row matched, or as good a match in a table that has the year asked when the row's own has none: the same line
 * item restated under "Reported | Restated" is no answer for 2018, a table of "2018 2017" is.
 */
/**
 * The operation asked, unless its words are those of a row's label the question names ("the change in Share of profit
 * of associates", "the change in Average invested capital", "the sum of Net change in cash and …"): then what the
 * rest of the question asks ("What was the net change in cash in 2021?" reads the row).
 */
function operationOf(question: string, grids: readonly TableGrid[], intents: readonly TableIntent[]): TableOperation {
  const operation = operationAsked(question, intents);
  if (operation === 'lookup') return operation;
  const named = labelsWritten(question, grids, (label) => label.includes(' '));
  return named.length === 0 ? operation : operationAsked(named.reduce((rest, label) => rest.replace(label.toLowerCase(), ' '), question.toLowerCase()), intents);
}

function ofYearAsked(match: RowMatch | undefined, years: number[], rematch: (grids: TableGrid[]) => RowMatch | undefined, grids: readonly TableGrid[]): RowMatch | undefined {
  if (!match || years.length === 0 || hasYearAsked(match.grid, years)) return match;
  const dated = rematch(grids.filter((grid) => hasYearAsked(grid, years)));
  return dated && dated.confidence >= match.confidence ? dated : match;
}

/** A column of one of the years asked, or the table's period one of them. */
function hasYearAsked(grid: TableGrid, years: readonly number[]): boolean {
  return grid.columns.some((c) => c.year !== undefined && years.includes(c.year)) || (grid.period !== undefined && years.includes(grid.period));
}

/** "… increase in X from 2018?", "since 2018", with no year it ran to: the change from that year to the latest. */
const SINCE_YEAR = /\b(?:from|since)\s+((?:19|20)\d\d)\b(?!\s*(?:to|through|and|-|–)\b)/i;

/**
 * "… as a share of the total purchase obligations" of the row "Purchase obligations": the row's own total (its Total
 * column), not the table's Total row; the words besides "total" name the first row again.
 */
function totalOfSameRow(phrase: string, [first, second]: [RowMatch, RowMatch]): boolean {
  const named = keysOf(/\btotal\s+(.+)$/i.exec(phrase)?.[1] ?? '');
  const label = new Set(keysOf(first.row.label));
  return named.length > 0 && named.every((k) => label.has(k)) && keysOf(second.row.label).includes(TOTAL_KEY)
    && first.grid.columns.some((c) => keysOf(c.label).includes(TOTAL_KEY));
}
const TOTAL_KEY = keysOf('total')[0];

/** The years a question names, in its order; a range ("2015 to 2019", "2019 to 2017", "between 2017 and 2019") with each year in it. */
function yearsAsked(question: string): number[] {
  const ranged = question.replace(/\b((?:19|20)\d\d)\s*(?:-|–|to|through)\s*((?:19|20)\d\d)\b/g, (whole, from: string, to: string) => {
    const [a, b] = [Number(from), Number(to)];
    if (a === b || Math.abs(b - a) > 10 || !/\b(?:average|mean|sum|total|combined|respectively)\b/i.test(question)) return whole;
    // "2019 to 2017 respectively": each year, in the order asked.
    return Array.from({ length: Math.abs(b - a) + 1 }, (_, i) => a + Math.sign(b - a) * i).join(' ');
  });
  // A year's short form counts as the year ("between F19 and F18"; a year after an F and a Y too), a split year as the one it ends in ("2017/18").
  const short = ranged.replace(/\bFY\s?((?:19|20)\d\d)\b/gi, '$1').replace(SPLIT_YEAR, (printed) => String(yearOf(printed))).replace(SHORT_YEAR, (printed) => String(yearOf(printed)));
  return [...new Set((short.match(YEAR) ?? []).map(Number))];
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

const ASKS_OPENING = /\b(?:beginning|start|opening)\b/i;
/** A small preference among rows equally named: the balance struck when the question asks (closing unless opening asked). */
function balanceDatePreference(row: GridRow, question: string): number {
  const struck = [...row.label.matchAll(BALANCE_DATE)].map((m) => m[1].toLowerCase());
  if (struck.length === 0) return 0;
  const opening = struck.includes('beginning') || struck.includes('start');
  return opening === ASKS_OPENING.test(question) ? BALANCE_DATE_WEIGHT : 0;
}
const BALANCE_DATE_WEIGHT = 0.05;

/**
 * A label dated by its year ("Net balances at September 30, 2019", rows of a roll-forward): the row of the year the
 * question names is meant, not one of another year.
 */
function labelYearFit(row: GridRow, question: string): number {
  const dated = row.label.match(YEAR);
  const named = question.match(YEAR);
  if (!dated || !named) return 0;
  return dated.some((y) => named.includes(y)) ? LABEL_YEAR_WEIGHT : -LABEL_YEAR_WEIGHT;
}
const LABEL_YEAR_WEIGHT = 0.05;

/**
 * A row dated in its label with none of the years asked, in a table whose columns and period have no year: another
 * period's row ("Net balances at September 30, 2017" when 2019 is asked and the passages hold no 2019 row).
 */
function datedOtherwise(match: RowMatch, years: number[]): boolean {
  const dated = match.row.label.match(YEAR);
  return dated !== null && years.length > 0 && !dated.some((y) => years.includes(Number(y))) && !hasYearAsked(match.grid, years);
}

/** Share of the asked words' neighbouring pairs that stand side by side in the label too ("net income" in "Consolidated Net Income"). */
function adjacency(asked: string[], label: string[]): number {
  if (asked.length < 2) return 0;
  const pairs = new Set(label.slice(1).map((k, i) => `${label[i]} ${k}`));
  let found = 0;
  for (let i = 1; i < asked.length; i++) if (pairs.has(`${asked[i - 1]} ${asked[i]}`)) found++;
  return found / (asked.length - 1);
}

/** A remainder row's label ("Other income", "All other"), and a phrase asking for one. English, as the intents are. */
const REMAINDER = /^\s*(?:all\s+)?others?\b/i;
const REMAINDER_ASKED = /\bothers?\b/i;
/** A remainder row the phrase does not ask for ("Other income" asked "net income"): no row of what it names. */
export function remainderNotAsked(label: string, phrase: string): boolean {
  return REMAINDER.test(label) && !REMAINDER_ASKED.test(phrase);
}

/** The row best named by the phrase: weighted recall of the phrase's words that any label holds, times the label's precision. */
function bestRow(phrase: string, grids: readonly TableGrid[], weigh: (key: string) => number, except?: GridRow | readonly GridRow[]): RowMatch | undefined {
  const skipped = new Set(Array.isArray(except) ? except : except ? [except] : []);
  const known = new Set(grids.flatMap((g) => g.rows.flatMap((r) => [...labelKeys(r), ...(r.section ? keysOf(r.section) : [])])));
  // "Net" of "the net difference in X" qualifies the operation, not X, unless a row is named so ("Net change in cash").
  const labels = grids.flatMap((g) => g.rows.map((r) => r.label.toLowerCase()));
  const qualifies = (w: string, next = '') => w === 'net' && /^(?:difference|change|increase|decrease)$/.test(next) && !labels.some((l) => l.includes(`net ${next}`));
  const asked = [...new Set(wordTokens(phrase).filter((w, i, all) => !OPERATION_WORDS.has(w) && !FUNCTION_WORDS.has(w) && !qualifies(w, all[i + 1])).map(termKey))].filter((k) => known.has(k));
  if (asked.length === 0) return undefined;
  const sum = (keys: string[]) => keys.reduce((s, k) => s + weigh(k), 0);
  const askedWeight = sum(asked);
  let best: RowMatch | undefined;
  for (const grid of grids) {
    for (const row of grid.rows) {
      if (skipped.has(row) || row.figures.every((f) => f?.value === undefined)) continue;
      // "Other income" is the income that is not the one asked: only a phrase saying "other" names it.
      if (remainderNotAsked(row.label, phrase)) continue;
      const ordered = labelKeys(row);
      const label = [...new Set(ordered)];
      // "Total" alone names a bare total row, not "Total emissions" (asked of "total visitors" where no label says visitors).
      if (label.length > 1 && label.filter((k) => asked.includes(k)).every((k) => k === TOTAL_KEY)) continue;
      const context = new Set([...label, ...keysOf(row.label), ...(row.section ? keysOf(row.section) : []), ...(grid.title ? keysOf(grid.title) : []), ...keysOf(stubHead(grid))]);
      const recall = sum(asked.filter((k) => context.has(k))) / askedWeight;
      // A label that opens with every word asked, in order, names it with a qualifier ("Indemnification receivable
      // from …"): as sure as an even match.
      const opens = asked.length >= 2 && asked.every((k, i) => ordered[i] === k);
      const even = label.length > 0 ? sum(label.filter((k) => asked.includes(k))) / sum(label) : 0;
      // A section's one row is what the section names ("Sales:" over "Product and equipment sales to affiliates").
      const sectionKeys = row.section ? keysOf(row.section) : [];
      const soleOfSection = sectionKeys.length > 0 && sectionKeys.every((k) => asked.includes(k)) && grid.rows.filter((r) => r.section === row.section).length === 1;
      const precision = opens || soleOfSection ? Math.max(even, OPENING_PRECISION) : even;
      if (recall < MIN_RECALL || precision < MIN_PRECISION) continue;
      const confidence = recall * (0.5 + precision / 2) + ADJACENCY_WEIGHT * adjacency(asked, ordered) + balanceDatePreference(row, phrase) + labelYearFit(row, phrase)
        + (writtenWhole(row.label, phrase) ? WHOLE_LABEL_WEIGHT : 0);
      if (!best || confidence > best.confidence) best = { grid, row, confidence };
    }
  }
  return best;
}

/**
 * The header's words before its first year, over the labels: what every row is of ("PASSENGERS CARRIED Q4 2019 Q4
 * 2018 …" heads "North line", "South line", …).
 */
function stubHead(grid: TableGrid): string {
  if (grid.header && headerCells(grid.header)) return ''; // read by columns: each cell a column's own
  const at = grid.header?.search(YEAR) ?? -1; // search() ignores the g flag and lastIndex
  return at > 0 ? grid.header!.slice(0, at) : '';
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

/** A row named surely enough to be read on its own (as a look-up must be: LOOKUP_CONFIDENCE in the answerer). */
const SURE_ROW = 0.75;

/**
 * One distinct row per phrase, all in one table: that of the first phrase's best row, else the next table that holds
 * them all (a row printed again where a table's parts overlap names both parts).
 */
function listedRows(phrases: readonly string[], grids: readonly TableGrid[], weigh: (key: string) => number): RowMatch[] | undefined {
  const firsts = grids.flatMap((grid) => bestRow(phrases[0], [grid], weigh) ?? []).sort((a, b) => b.confidence - a.confidence);
  for (const first of firsts) {
    const rows = [first];
    for (const phrase of phrases.slice(1)) {
      const next = bestRow(phrase, [first.grid], weigh, rows.map((r) => r.row));
      if (!next) break;
      rows.push(next);
    }
    if (rows.length === phrases.length) return rows;
  }
  return undefined;
}

/** Several rows' cells in one period (the one asked, else the latest): each (a look-up), or their sum or average. */
function rowsAnswer(operation: TableOperation, rows: RowMatch[], years: number[], shared: Set<string>): TableAnswer | undefined {
  const grid = rows[0].grid;
  if (years.length > 1) return undefined;
  const column = years.length === 1 ? columnOf(grid, years[0]) : yearColumns(grid, rows[0].row)[0] ?? (grid.columns.some((c) => c.year !== undefined) ? -1 : 0);
  const cells = column >= 0 ? rows.map((r) => cell(r, column)) : [];
  if (cells.length === 0 || cells.some((c) => c === undefined)) return undefined;
  const used = cells as TableCell[];
  const names = rows.map((r) => rowName(r.row, shared));
  const period = used[0].column.label ? `, ${used[0].column.label}` : '';
  if (operation === 'lookup') {
    const figures = used.map((c, i) => `${names[i]}: ${withUnit(c.value, unitOf(rows[i]), { decimals: rows[i].row.figures[figureIndex(rows[i], column) ?? 0]?.decimals ?? 0, keepDecimals: true })}`);
    return { line: `${period.slice(2) || 'Respectively'}: ${figures.join('; ')}`, operation, cells: used, confidence: Math.min(...rows.map((r) => r.confidence)) };
  }
  const computed = compute(operation, used.map((c) => c.value));
  if (!computed) return undefined;
  const value = withUnit(computed.value, unitOf(rows[0]));
  const line = `${OPERATION_NAMES[operation]} ${names.slice(0, -1).join(', ')} and ${names.at(-1)}${period}: ${value} (${computed.trace})`;
  return { line, operation, cells: used, computed, confidence: Math.min(...rows.map((r) => r.confidence)) };
}

/**
 * A column by year: the first whose header names it, or of several that do, the one whose other words the question
 * holds most of (`asked`: its term keys; "net additions … in 2019" of "August 31, 2019 | Net additions August 31, 2019").
 */
function columnOf(grid: TableGrid, year: number, asked: readonly string[] = []): number {
  // Every column of one year (quarters, dates within it) does not tell which: none. Two groups of the same years
  // ("2019 2018 2019 2018": sales, then costs) read the first.
  const years = grid.columns.flatMap((c) => (c.year !== undefined ? [c.year] : []));
  if (years.length >= 2 && new Set(years).size === 1) return -1;
  const held = (c: GridColumn) => keysOf(c.label).filter((k) => !/^\d/.test(k) && asked.includes(k)).length;
  let best = -1;
  grid.columns.forEach((c, i) => {
    if (c.year === year && (best < 0 || held(c) > held(grid.columns[best]))) best = i;
  });
  return best;
}

/**
 * The columns of one year that the question names by the words setting them apart ("Estimated at June 30, 2019" and
 * "Final as of December 31, 2019" asked "at June 30 and December 31, 2019"), left to right.
 */
function columnsOfYearNamed(grid: TableGrid, year: number, asked: readonly string[]): number[] {
  const ofYear = grid.columns.flatMap((c, i) => (c.year === year ? [i] : []));
  const keys = ofYear.map((i) => keysOf(grid.columns[i].label).filter((k) => !/^\d/.test(k)));
  const everywhere = new Set(keys[0]?.filter((k) => keys.every((own) => own.includes(k))));
  return ofYear.filter((_, n) => keys[n].some((k) => !everywhere.has(k) && asked.includes(k)));
}

/** A lookup, change, percent change, sum or average of one row over periods. */
function periodAnswer(operation: TableOperation, match: RowMatch, years: number[], shared: Set<string>, askedKeys: readonly string[] = [], since?: string): TableAnswer | undefined {
  const byYear = yearColumns(match.grid, match.row);
  let columns: number[];
  const dated = years.length === 1 ? columnsOfYearNamed(match.grid, years[0], askedKeys) : [];
  if (operation === 'lookup') {
    // Of several columns of the year asked, those the question names by their own words.
    const asked = dated.length > 0 ? dated : years.map((y) => columnOf(match.grid, y, askedKeys)).filter((i) => i >= 0);
    columns = asked.length > 0 ? [asked[0]] : byYear.length > 0 ? [byYear[0]] : match.row.figures.length === 1 ? [0] : [];
  } else if (operation === 'change' || operation === 'percent-change') {
    // From the earlier period to the later: the two asked, or the one asked and the period before it, or the latest two.
    const asked = years.map((y) => columnOf(match.grid, y, askedKeys)).filter((i) => i >= 0);
    // "From 2018" alone: 2018 is the earlier, the latest period the later.
    const fromAsked = asked.length === 1 && since !== undefined && match.grid.columns[asked[0]].year === Number(since) ? asked[0] : undefined;
    if (fromAsked !== undefined) asked.splice(0, 1, byYear[0], fromAsked);
    const later = asked.length > 0 ? asked.reduce((a, b) => (match.grid.columns[a].year! >= match.grid.columns[b].year! ? a : b)) : byYear[0];
    const earlier = asked.length >= 2 ? asked.reduce((a, b) => (match.grid.columns[a].year! <= match.grid.columns[b].year! ? a : b)) : byYear[byYear.indexOf(later) + 1];
    columns = later !== undefined && earlier !== undefined && later !== earlier ? [earlier, later] : [];
  } else {
    const asked = years.map((y) => columnOf(match.grid, y, askedKeys)).filter((i) => i >= 0);
    columns = asked.length >= 2 ? asked : asked.length === 0 ? byYear : [];
  }
  const cells = columns.map((c) => cell(match, c));
  if (cells.length === 0 || cells.some((c) => c === undefined)) return undefined;
  const used = cells as TableCell[];
  const label = rowName(match.row, shared);
  const unit = unitOf(match);
  const decimalsOf = (c: TableCell) => match.row.figures[figureIndex(match, match.grid.columns.indexOf(c.column)) ?? 0]?.decimals ?? 0;
  if (operation === 'lookup') {
    // Several periods asked of one row ("in 2019 and 2018 respectively", "at June 30 and December 31, 2019"): each.
    const asked = (dated.length >= 2 ? dated : years.map((y) => columnOf(match.grid, y, askedKeys)).filter((i) => i >= 0)).map((c) => cell(match, c));
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
function comparisonAnswer(asked: PeriodComparison, match: RowMatch, shared: Set<string>, question = '', grids: readonly TableGrid[] = []): TableAnswer | undefined {
  const comparison = inTableUnit(asked, unitOf(match));
  const byYear = yearColumns(match.grid, match.row).flatMap((c) => cell(match, c) ?? []);
  // Tables of one period each: the row's cell, under the column named, in each period's table.
  const cells = byYear.length >= 2 ? byYear : periodTablesCells(match, namedColumns(question, match.grid), grids);
  if (cells.length < 2) return undefined;
  const figures = cells.map((c) => ({ period: c.grid.period !== undefined && byYear.length < 2 ? String(c.grid.period) : c.column.label || String(c.column.year), value: c.value }));
  const met = periodsMeeting(comparison, figures);
  if (comparison.asks === 'which' && met.length === 0) return undefined;
  const line = comparisonLine(comparison, rowName(match.row, shared), figures, met);
  return { line, operation: comparison.asks === 'count' ? 'count' : 'compare', cells, confidence: match.confidence };
}

/**
 * The largest or smallest of a table's items: the cells of the row named, under columns named by words (segments),
 * unless that row is a total; else the cells down the column named (by words, else the year asked), totals left out.
 */
function itemsAnswer(comparison: PeriodComparison, question: string, grids: readonly TableGrid[], shared: Set<string>): TableAnswer | undefined {
  const match = bestRow(question, grids, labelWeights(grids));
  const years = yearsAsked(question);
  const columnAsked = (grid: TableGrid) => namedColumns(question, grid)[0] ?? (years.length > 0 ? columnOf(grid, years[0]) : -1);
  const acrossColumns = match !== undefined && match.confidence >= ITEM_ROW_CONFIDENCE && !isTotal(match.row.label) && !match.grid.columns.some((c) => c.year !== undefined);
  // Down a column, of the row's table, else of the first table with the column asked ("their lows" of "Low | High").
  // (Without a row named, only a count: "how many quarters had lows below 2.00?".)
  // Of a section the question names ("Which component of deferred tax assets …"), its items only.
  const section = acrossColumns ? undefined : sectionNamed(question, grids);
  const grid = acrossColumns ? match.grid : section?.grid ?? match?.grid ?? (comparison.asks === 'count' ? grids.find((g) => columnAsked(g) >= 0) : undefined);
  if (!grid) return undefined;
  const column = acrossColumns ? -1 : columnAsked(grid);
  const cells = acrossColumns
    ? grid.columns.flatMap((c, i) => (isTotal(c.label) || !c.label ? [] : cell(match, i) ?? []))
    : column < 0 ? [] : (section?.rows ?? grid.rows).flatMap((row) => (isTotal(row.label) || !row.label ? [] : cell({ grid, row, confidence: 0 }, column) ?? []));
  if (cells.length < 2) return undefined;
  const figures = cells.map((c) => ({ period: acrossColumns ? c.column.label : rowName(c.row, shared), value: c.value }));
  const inUnit = inTableUnit(comparison, unitOf({ grid, row: cells[0].row, confidence: 0 }));
  const met = periodsMeeting(inUnit, figures);
  if (comparison.asks === 'which' && met.length === 0) return undefined;
  const what = acrossColumns ? rowName(match.row, shared) : cells[0].column.label || 'the column';
  return { line: comparisonLine(inUnit, what, figures, met, ['item', 'items']), operation: comparison.asks === 'count' ? 'count' : 'compare', cells, confidence: match?.confidence ?? 1 };
}
/** A row named less surely than this is no item compared across columns. */
const ITEM_ROW_CONFIDENCE = 0.75;

/** A difference, ratio or share of two rows in one period (the one asked, else the latest). */
function twoRowAnswer(operation: TableOperation, first: RowMatch, second: RowMatch, years: number[], shared: Set<string>, named?: number): TableAnswer | undefined {
  const grid = first.grid;
  const column = named ?? (years.length > 0 ? columnOf(grid, years[0]) : yearColumns(grid, first.row)[0] ?? 0);
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
