/**
 * Questions about a table's shape rather than one of its figures: which periods it covers ("Which years does the
 * table provide information for net sales?") and which items a section lists ("What are the items under deferred tax
 * liabilities?", "How many components are there under …?"). Answered from the grid: its columns' years, or the labels of the rows under that section.
 * Domain-neutral; the triggers are data (STRUCTURE_INTENTS), in one language each.
 */
import { wordTokens } from '../text.js';
import { keysOf, type TableAnswer, type TableCell } from './table-cells.js';
import type { GridRow, TableGrid } from './table-grid.js';

export interface StructureIntent {
  /** 'count': how many items a section lists. */
  asks: 'periods' | 'items' | 'count';
  language: string;
  /** For 'items', group 1 is the section's name as the question says it. */
  trigger: RegExp;
}

export const STRUCTURE_INTENTS: readonly StructureIntent[] = [
  // The table named, or the periods something "is shown / was calculated" for; not when one happened ("In which
  // period did …") nor which one is higher.
  { asks: 'periods', language: 'en', trigger: /^\s*(?:in\s+)?(?:which|what)\s+(?:(?:are|were)\s+the\s+)?(?:years?|periods?)\b(?!.*\b(?:higher|lower|larger|smaller|greater|less|more|most|least|exceed|above|below|increase|decrease)\b)(?:.*\btable\b|\s+(?:is|are|was|were|does|do)\b.*\b(?:provided|shown|included|calculated|presented|covered|reported|recorded|listed)\b)/i },
  // Not how many of them pass a threshold ("… exceeded 2,000 in 2019?"): that compares their figures (item-comparison.ts).
  { asks: 'count', language: 'en', trigger: /^\s*how many\s+(?:major\s+|main\s+)?(?:components?|items?|types?|elements?|categories)\s+(?:are there\s+|are\s+)?(?:under|of|in|within|listed under)\s+(?:the\s+)?(?!.*\b(?:exceed(?:ed|s)?|above|below|over|under|more than|less than|greater than|higher than|lower than)\s+[$€£]?\d)(.+?)\??$/i },
  { asks: 'items', language: 'en', trigger: /^\s*(?:what|which)\s+(?:are|were)\s+(?:the\s+)?(?:components?|items?|types?|elements?|categories|sub-?items)\s+(?:under|of|in|included in|within|listed under)\s+(?:the\s+)?(.+?)\??$/i },
];

/** The share of the words the question names that a section's name must hold (and of its own that must be named). */
const MIN_SECTION_RECALL = 0.75;

/** Whether the question asks about a table's shape (then a figure of some row is no answer to it). */
export function asksStructure(question: string, intents: readonly StructureIntent[] = STRUCTURE_INTENTS): boolean {
  return intents.some((i) => i.trigger.test(question));
}

export function structureAnswer(question: string, grids: readonly TableGrid[], intents: readonly StructureIntent[] = STRUCTURE_INTENTS): TableAnswer | undefined {
  const intent = intents.find((i) => i.trigger.test(question));
  if (!intent) return undefined;
  if (intent.asks === 'periods') return periodsAnswer(question, grids);
  const items = itemsAnswer(intent.trigger.exec(question)![1], grids);
  if (!items || intent.asks === 'items') return items;
  return { ...items, line: `${items.cells.length} items: ${items.line}`, operation: 'count' };
}

/** The years of the table whose title, header or labels the question's words name most (the only one, if one). */
function periodsAnswer(question: string, grids: readonly TableGrid[]): TableAnswer | undefined {
  const asked = new Set(keysOf(question));
  const scored = grids
    .filter((g) => g.columns.some((c) => c.year !== undefined))
    .map((grid) => {
      const words = new Set([...keysOf(grid.title ?? ''), ...grid.rows.flatMap((r) => [...keysOf(r.label), ...keysOf(r.section ?? '')])]);
      return { grid, score: [...asked].filter((k) => words.has(k)).length };
    })
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best) return periodTablesYears(grids);
  // None named by the question's words ("Which years does the table show?"): only when the tables found agree.
  const yearsOf = (grid: TableGrid) => [...new Set(grid.columns.flatMap((c) => (c.year === undefined ? [] : [c.year])))].join(' ');
  if (scored.length > 1 && best.score === 0 && new Set(scored.map(({ grid }) => yearsOf(grid))).size > 1) return undefined;
  const years = [...new Set(best.grid.columns.flatMap((c) => (c.year === undefined ? [] : [c.year])))];
  if (years.length < 2) return undefined;
  const row = best.grid.rows.find((r) => r.figures.some((f) => f?.value !== undefined));
  if (!row) return undefined;
  return { line: `The table covers ${listed(years.map(String))}`, operation: 'periods', cells: cellsOf(best.grid, [row]), confidence: 1 };
}

/** Tables of one period each under one header ("December 31, 2019" and "… 2018" blocks): their periods, latest first. */
function periodTablesYears(grids: readonly TableGrid[]): TableAnswer | undefined {
  const dated = grids.filter((g) => g.period !== undefined);
  if (dated.length === 0 || new Set(dated.map((g) => g.header)).size !== 1) return undefined;
  const years = [...new Set(dated.map((g) => g.period!))].sort((a, b) => b - a);
  const row = dated[0].rows.find((r) => r.figures.some((f) => f?.value !== undefined));
  if (years.length < 2 || !row) return undefined;
  return { line: `The table covers ${listed(years.map(String))}`, operation: 'periods', cells: cellsOf(dated[0], [row]), confidence: 1 };
}

/** The labels of the rows under the section the question names (its words, most of them, in the section's name). */
function itemsAnswer(named: string, grids: readonly TableGrid[]): TableAnswer | undefined {
  const asked = new Set(keysOf(named));
  if (asked.size === 0) return undefined;
  let best: { grid: TableGrid; rows: GridRow[]; recall: number; whole: number } | undefined;
  for (const grid of grids) {
    const sections = new Map<string, GridRow[]>();
    for (const row of grid.rows) if (row.section) sections.set(row.section, [...(sections.get(row.section) ?? []), row]);
    for (const [section, rows] of sections) {
      const keys = new Set(keysOf(section));
      const recall = [...asked].filter((k) => keys.has(k)).length / asked.size;
      // A section under a section reads as both headings joined ("Observable markets data Equity securities"): the
      // inner one, its last words, may be all the question names.
      const precision = Math.max(...tails(keysOf(section)).map((tail) => (tail.length === 0 ? 0 : tail.filter((k) => asked.has(k)).length / tail.length)));
      // Of two sections the question names as well, the one named whole ("Other assets", not "Other current assets").
      const whole = keys.size === 0 ? 0 : [...keys].filter((k) => asked.has(k)).length / keys.size;
      if (recall >= MIN_SECTION_RECALL && precision >= MIN_SECTION_RECALL && (!best || recall > best.recall || (recall === best.recall && whole > best.whole))) best = { grid, rows, recall, whole };
    }
  }
  const items = best && sectionItems(best.rows);
  if (!best || !items || items.length < 2) return totalsItems(asked, grids);
  const section = best.rows[0].section!;
  return { line: `${section.replace(/:$/, '')}: ${listed(items.map((r) => r.label))}`, operation: 'items', cells: cellsOf(best.grid, items), confidence: best.recall };
}

/**
 * The section a question names whole (every word of its name, the longest such name), with its items: "Which
 * component of deferred tax assets was the largest?" compares the rows under "Deferred tax assets", not the table's.
 */
export function sectionNamed(question: string, grids: readonly TableGrid[]): { grid: TableGrid; rows: GridRow[] } | undefined {
  const asked = new Set(keysOf(question));
  let best: { grid: TableGrid; rows: GridRow[]; size: number } | undefined;
  for (const grid of grids) {
    for (const section of new Set(grid.rows.flatMap((r) => (r.section ? [r.section] : [])))) {
      const keys = keysOf(section);
      if (keys.length === 0 || !keys.every((k) => asked.has(k)) || (best && best.size >= keys.length)) continue;
      const rows = sectionItems(grid.rows.filter((r) => r.section === section));
      if (rows.length >= 2) best = { grid, rows, size: keys.length };
    }
  }
  return best && { grid: best.grid, rows: best.rows };
}

/** A section's items: the rows with a name of their own, before the section's total. */
function sectionItems(rows: GridRow[]): GridRow[] {
  // The items are the rows with a name of their own, not the section's totals ("Total …", or a label that repeats the
  // section's name: "Gross deferred tax liabilities").
  const sectionKeys = keysOf(rows[0].section!);
  // A one-word name repeated is a total only so qualified ("Net sales" under "Sales"; "Professional services" is an item);
  // a long label that holds the section's words names something of its own ("Charges associated with … acquisition
  // related …" under "Acquisition-related charges").
  const repeats = (r: GridRow) => sectionKeys.every((k) => new Set(keysOf(r.label)).has(k)) && keysOf(r.label).length <= sectionKeys.length + 2
    && (sectionKeys.length > 1 || /^(?:gross|net)\b/i.test(r.label));
  // A row of figures with no label of its own sums those above it.
  const unnamedSum = (r: GridRow) => wordTokens(r.label).length === 0 && r.figures.some((f) => f?.value !== undefined);
  const totals = (r: GridRow, i: number) => /^total\b/i.test(r.label) || repeats(r) || unnamedSum(r) || sumsAbove(rows, i);
  // What comes after the section's total adjusts it ("Less valuation allowance", then "Net …"): no item of it.
  const total = rows.findIndex(totals);
  return rows.slice(0, total < 0 ? undefined : total).filter((r) => r.label && wordTokens(r.label).length > 0);
}

/**
 * No section named so: the rows a total row of that name sums ("the components of total costs": the rows above
 * "Total costs", back to the table's start, its section's or the total before).
 */
function totalsItems(asked: Set<string>, grids: readonly TableGrid[]): TableAnswer | undefined {
  for (const grid of grids) {
    const at = grid.rows.findIndex((r) => /\btotal\b/i.test(r.label) && keysOf(r.label).length === asked.size && keysOf(r.label).every((k) => asked.has(k)));
    if (at < 1) continue;
    let from = at;
    while (from > 0 && !/\btotal\b/i.test(grid.rows[from - 1].label) && grid.rows[from - 1].section === grid.rows[at].section && grid.rows[from - 1].label) from--;
    const items = grid.rows.slice(from, at);
    if (items.length < 2) continue;
    return { line: `${grid.rows[at].label}: ${listed(items.map((r) => r.label))}`, operation: 'items', cells: cellsOf(grid, items), confidence: 1 };
  }
  return undefined;
}

/**
 * Whether the row at `at` sums the two rows or more above it, in every column where each of them has a figure (to
 * the printed rounding): a total whatever its name ("Shares used in diluted computation", "Net increase in cash").
 */
function sumsAbove(rows: readonly GridRow[], at: number): boolean {
  if (at < 2) return false;
  const above = rows.slice(0, at);
  const columns = rows[at].figures.flatMap((f, j) => (f?.value !== undefined && above.every((r) => r.figures[j]?.value !== undefined) ? [j] : []));
  return columns.length > 0 && columns.every((j) => {
    const values = [...above, rows[at]].map((r) => r.figures[j]!.value!);
    const sum = values.slice(0, -1).reduce((n, v) => n + v, 0);
    // Printed rounding: each figure off by half its last digit, a whole unit for whole numbers.
    const digit = values.every(Number.isInteger) ? 1 : 0.1;
    return Math.abs(sum - values.at(-1)!) <= Math.max(digit, Math.abs(sum) * 0.002);
  });
}

/** A name's words and each shorter run of its last words ("a b c", "b c", "c"). */
function tails(keys: string[]): string[][] {
  return keys.map((_, i) => keys.slice(i));
}

function cellsOf(grid: TableGrid, rows: GridRow[]): TableCell[] {
  return rows.flatMap((row) => {
    const at = row.figures.findIndex((f) => f?.value !== undefined);
    const column = grid.columns[at] ?? { label: '' };
    return at < 0 ? [] : [{ grid, row, column, value: row.figures[at]!.value! }];
  });
}

function listed(items: string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
