/**
 * A question about a figure answered from table cells: the row whose label best names what is asked (its words
 * weighted by how rare they are among the tables' labels), the column of the period asked (else the latest), and the
 * arithmetic the question asks for computed from the cells ("(8,985 − 6,476) / 6,476 = 38.71%"). The answer's first
 * line states the figure with its label, period and unit; the rows it used are its quotes.
 */
import { headerCells, YEAR } from '../layout.js';
import { termKey, wordTokens } from '../text.js';
import { formatNumber, withUnit, type Figure, type TableUnit } from './figures.js';
import { compute, type Computed, type TableOperation } from './table-arithmetic.js';
import { SHORT_YEAR, SPLIT_YEAR, yearOf, type GridColumn, type GridRow, type TableGrid } from './table-grid.js';
import { FUNCTION_WORDS, keysOf, type TableAnswer, type TableCell } from './table-cells.js';
import { OPERATION_WORDS, operationAsked, TABLE_INTENTS, type TableIntent } from './table-intents.js';
import { comparisonAsked, comparisonLine, periodsMeeting, type PeriodComparison } from './period-comparison.js';
import { asksStructure, structureAnswer } from './table-structure.js';
import { isTotal, itemComparisonAsked } from './item-comparison.js';

export type { TableAnswer, TableCell } from './table-cells.js';
export { keysOf } from './table-cells.js';

/** A row must hold at least this share (by weight) of the words asked, and its label be at least this much words asked. */
const MIN_RECALL = 0.5;
const MIN_PRECISION = 0.5;
/** The precision a label opening with the words asked counts as (below an even match's 1: that one wins a tie). */
const OPENING_PRECISION = 0.9;
/** What words asked side by side and standing so in a label add to its match (a tie-breaker between rows of the same words). */
const ADJACENCY_WEIGHT = 0.1;

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
  const operation = operationAsked(question, intents);
  const years = yearsAsked(question);
  // Tables of one period each ("Range 2018" over "Low High"): those of the year asked.
  const ofYear = grids.filter((g) => g.period === undefined || years.length === 0 || years.includes(g.period));
  if (ofYear.length < grids.length && ofYear.length > 0) grids = ofYear;
  const weigh = labelWeights(grids);
  const twoRows = operation === 'difference' || operation === 'ratio' || operation === 'share';
  const phrases = twoRows ? twoPhrases(question, operation) : undefined;
  if (phrases) {
    const pair = rowPair(phrases, grids, weigh);
    if (pair && !totalOfSameRow(phrases[1], pair)) return twoRowAnswer(operation, pair[0], pair[1], years, shared, namedColumns(question, pair[0].grid)[0]);
  }
  // Rows listed for a sum or an average ("the sum of A and B in 2019", "the average of A, B and C"): one period's cells.
  const listed = operation === 'sum' || operation === 'average' ? listedPhrases(question) : operation === 'lookup' ? respectivePhrases(question) : undefined;
  const rows = listed && listedRows(listed, grids, weigh);
  if (rows) return rowsAnswer(operation, rows, years, shared);
  // One row: a lookup, or an operation over its periods (a difference "between 2019 and 2018" of one row is a change).
  const match = ofYearAsked(bestRow(question, grids, weigh), years, (dated) => bestRow(question, dated, weigh), grids);
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
  return keysOf((row.label || row.section || '').replace(NOTE_REFERENCE, ' ').replace(BALANCE_DATE, ' '));
}
const NOTE_REFERENCE = /\((?:see\s+)?(?:note|notes)\s+[\w.]+\)|\(\d+\)/gi;
/**
 * When a balance is struck ("Goodwill, end of the year", "Balance at beginning of period"): a qualifier of the row, not
 * what it is. A label with it names what is asked as well as one without; the closing balance is the period's figure
 * unless the question asks for the opening one.
 */
const BALANCE_DATE = /,?\s*(?:(?:at|as of)\s+)?(?:the\s+)?(beginning|start|end|close)\s+of\s+(?:the\s+)?(?:\p{L}+\s+)?(?:year|period)\b/giu;
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
      if (REMAINDER.test(row.label) && !REMAINDER_ASKED.test(phrase)) continue;
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
      const confidence = recall * (0.5 + precision / 2) + ADJACENCY_WEIGHT * adjacency(asked, ordered) + balanceDatePreference(row, phrase) + labelYearFit(row, phrase);
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
  // "How much more A (came from X) as compared to B?": A's row, then B's.
  const compared = operation === 'difference' ? /\bhow much (?:more|less|higher|lower|greater)\s+(.+?)\s+(?:(?:as\s+)?compared (?:to|with)|than)\s+(.+)/i.exec(q) : null;
  if (compared) return [compared[1], compared[2]];
  const pair = operation === 'ratio' ? /(?:ratio\s+(?:of|between)\s+)?(.+?)\s+(?:to|and|divided by|over)\s+(.+)/i : /(?:between|of)\s+(.+?)\s+and\s+(.+)/i;
  const match = pair.exec(q.replace(/^.*?\b(?:ratio|difference)\b\s*(?:(?:of|between|in)\s+)?/i, operation === 'ratio' ? '' : 'between '));
  if (!match) return undefined;
  // "between 2019 and 2018": periods, not rows.
  if (!/\p{L}{3}/u.test(match[1].replace(YEAR, '')) || !/\p{L}{3}/u.test(match[2].replace(YEAR, ''))) return undefined;
  return [match[1], match[2]];
}

/**
 * The rows a sum or an average lists, as phrases: "sum of A and B in 2019" → A, B; "average of A, B and C" → A, B, C;
 * "average of X at <date> for A and B" → A, B.
 * Undefined unless two phrases or more name words (not periods: "A in 2018 and 2019" lists one row).
 */
function listedPhrases(question: string): string[] | undefined {
  const list = /\b(?:sum|total|average|mean|combined)\b\s+(?:(?:amount|value)\s+)?(?:of|for)\s+(?:the\s+)?(?:amount\s+of\s+)?(.+)/i.exec(question.replace(/\?$/, ''))?.[1];
  if (!list) return undefined;
  // "the average of the net balances at September 30, 2019 for A, B and C": the rows follow "for".
  const rows = /\bfor\s+((?:(?!\bfor\b).)+?\band\b.+)$/i.exec(list)?.[1] ?? list;
  return listItems(rows.replace(PERIOD_TAIL, ''));
}
const PERIOD_TAIL = /\s+(?:in|for|during|as of|at|of)\s+(?:the\s+)?(?:\p{L}+\s+)?(?:years?\s+)?(?:(?:ended\s+)?\p{L}*\s*\d{0,2},?\s*)?(?:19|20)\d\d\b.*$/iu;

/**
 * The rows a look-up asks "respectively": "the exchange rates for A and B for 2018, respectively" → A, B; "the net
 * sales of the A and B segment respectively" → A, B segment; "the respective A and B for 2017" → A, B. Undefined unless
 * two phrases or more name words.
 */
function respectivePhrases(question: string): string[] | undefined {
  if (!/\brespective(?:ly)?\b/i.test(question)) return undefined;
  const body = question.replace(/\?$/, '').replace(/,?\s*respectively\b/i, '').replace(PERIOD_TAIL, '');
  // "… of A and B" or "the respective A and B".
  const list = /\b(?:of|for)\s+(?:the\s+)?((?:(?!\b(?:of|for)\b).)+?\band\b(?:(?!\b(?:of|for)\b).)+)$/i.exec(body)?.[1] ?? /\brespective\s+(\S.*?\band\b.+)$/i.exec(body)?.[1];
  return list === undefined ? undefined : listItems(list);
}

/** A list's items ("A, B and C"), or undefined unless two or more each name words, not only periods. */
function listItems(list: string): string[] | undefined {
  const items = list.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map((p) => p.trim()).filter(Boolean);
  return items.length >= 2 && items.every((p) => /\p{L}{3}/u.test(p.replace(YEAR, ''))) ? items : undefined;
}

/** One distinct row per phrase, all in the table of the first phrase's row. */
function listedRows(phrases: readonly string[], grids: readonly TableGrid[], weigh: (key: string) => number): RowMatch[] | undefined {
  const first = bestRow(phrases[0], grids, weigh);
  if (!first) return undefined;
  const rows = [first];
  for (const phrase of phrases.slice(1)) {
    const next = bestRow(phrase, [first.grid], weigh, rows.map((r) => r.row));
    if (!next) return undefined;
    rows.push(next);
  }
  return rows;
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
function figureIndex(match: RowMatch, column: number): number | undefined {
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
  if (figures.length <= named || k < 0) return undefined;
  // Each column heads an amount and its shares ("2019 2018 Change" over "Amount % of total Amount % of total ($) (%)":
  // "64,798 9% 35,452 5% 29,346 83"): a year's figure is its group's first.
  const width = figures.length / named;
  if (Number.isInteger(width) && named >= 2 && amountsWithShares(figures, width)) return column * width;
  if (amounts.length === years.length) return amounts[k];
  return years.every((at, i) => at === i) ? column : undefined;
}

/** Figures in groups of `width`, each an amount followed by shares of it (a percentage, or a number up to 100). */
function amountsWithShares(figures: ReadonlyArray<Figure | undefined>, width: number): boolean {
  return figures.every((f, i) => {
    if (i % width === 0) return !f?.percent;
    return f === undefined || f.value === undefined || f.percent || Math.abs(f.value) <= 100;
  });
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
function comparisonAnswer(comparison: PeriodComparison, match: RowMatch, shared: Set<string>, question = '', grids: readonly TableGrid[] = []): TableAnswer | undefined {
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
  const grid = acrossColumns ? match.grid : match?.grid ?? (comparison.asks === 'count' ? grids.find((g) => columnAsked(g) >= 0) : undefined);
  if (!grid) return undefined;
  const column = acrossColumns ? -1 : columnAsked(grid);
  const cells = acrossColumns
    ? grid.columns.flatMap((c, i) => (isTotal(c.label) || !c.label ? [] : cell(match, i) ?? []))
    : column < 0 ? [] : grid.rows.flatMap((row) => (isTotal(row.label) || !row.label ? [] : cell({ grid, row, confidence: 0 }, column) ?? []));
  if (cells.length < 2) return undefined;
  const figures = cells.map((c) => ({ period: acrossColumns ? c.column.label : rowName(c.row, shared), value: c.value }));
  const met = periodsMeeting(comparison, figures);
  if (comparison.asks === 'which' && met.length === 0) return undefined;
  const what = acrossColumns ? rowName(match.row, shared) : cells[0].column.label || 'the column';
  return { line: comparisonLine(comparison, what, figures, met, ['item', 'items']), operation: comparison.asks === 'count' ? 'count' : 'compare', cells, confidence: match?.confidence ?? 1 };
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

/**
 * The columns a question names by their words, in the order it names them: those without a year whose label's words
 * it holds at least half of, the fuller match first where two share a word ("unrealized gains" is not "Unrealized
 * Losses"). None when the table's columns name years, or a column's words are the row's too.
 */
function namedColumns(question: string, grid: TableGrid): number[] {
  if (grid.columns.some((c) => c.year !== undefined)) return [];
  const asked = wordTokens(question).map(termKey);
  const scored = grid.columns.flatMap((column, i) => {
    const keys = [...new Set(keysOf(column.label))].filter((k) => !/^\d/.test(k));
    const held = keys.filter((k) => asked.includes(k));
    if (keys.length === 0 || held.length / keys.length < 0.5) return [];
    return [{ i, score: held.length / keys.length, at: Math.min(...held.map((k) => asked.indexOf(k))), keys: held }];
  });
  // A word shared by two named columns goes to the one that holds more of the question's words, or more words the
  // question names ("more than 5 years" names "More Than 5 Years", not "1-3 Years").
  const kept = scored.filter((c) => !scored.some((o) => o !== c && (o.score > c.score || o.keys.length > c.keys.length) && c.keys.every((k) => o.keys.includes(k))));
  return kept.sort((a, b) => a.at - b.at).map((c) => c.i);
}

/** One row's figure under a column named by words, or an operation of that figure alone (a look-up). */
function columnAnswer(operation: TableOperation, match: RowMatch, columns: readonly number[], shared: Set<string>): TableAnswer | undefined {
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
function acrossPeriodTables(operation: TableOperation, match: RowMatch, years: number[], named: number[], grids: readonly TableGrid[], shared: Set<string>): TableAnswer | undefined {
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
function periodTablesCells(match: RowMatch, named: readonly number[], grids: readonly TableGrid[]): TableCell[] {
  const column = named.length === 1 ? named[0] : match.grid.columns.length === 1 ? 0 : -1;
  if (match.grid.period === undefined || column < 0) return [];
  const periods = [...new Set(grids.flatMap((g) => (g.period !== undefined && g.header === match.grid.header ? [g.period] : [])))].sort((a, b) => a - b);
  return periods.flatMap((period) => grids.flatMap((grid) => {
    const row = grid.period === period && grid.header === match.grid.header ? grid.rows.find((r) => r.label === match.row.label && r.section === match.row.section) : undefined;
    return (row && cell({ grid, row, confidence: match.confidence }, column)) ?? [];
  }).slice(0, 1));
}

/** No row named: the one table found whose one column the question names ("the average low price for 2019"), down its rows. */
function columnOfOneTable(operation: 'average' | 'sum', question: string, grids: readonly TableGrid[]): TableAnswer | undefined {
  if (grids.length !== 1) return undefined;
  const named = namedColumns(question, grids[0]);
  const first = grids[0].rows.find((r) => !isTotal(r.label) && r.label);
  return named.length === 1 && first ? columnDown(operation, { grid: grids[0], row: first, confidence: NO_ROW_CONFIDENCE }, named[0]) : undefined;
}
/** How sure an answer read down a column is when no row was named: as sure as a weak row match. */
const NO_ROW_CONFIDENCE = 0.5;

/** Whether the words of the question that name the matched row name every other item row of its table as well. */
function namesEveryRow(question: string, match: RowMatch): boolean {
  const asked = new Set(keysOf(question));
  const naming = labelKeys(match.row).filter((k) => asked.has(k));
  const items = match.grid.rows.filter((r) => !isTotal(r.label) && r.label);
  return naming.length > 0 && items.length >= 2 && items.every((r) => naming.every((k) => labelKeys(r).includes(k)));
}

/** The sum or average of a column's cells down the table's item rows (its totals left out). */
function columnDown(operation: 'average' | 'sum', match: RowMatch, column: number): TableAnswer | undefined {
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
function columnsTotal(operation: 'average' | 'sum', match: RowMatch, columns: number[], shared: Set<string>): TableAnswer | undefined {
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
function columnsAnswer(operation: TableOperation, match: RowMatch, columns: number[], shared: Set<string>): TableAnswer | undefined {
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
