/**
 * Tables read as tables: the lines of a page or passage (core/rag/layout.ts splits them into headings, column
 * headers, rows and sentences) as rows × columns, each row a label (with the section heading above it, "SALES" of
 * "North America") and its figures, each column a header (a period when it names a year), and the unit the table
 * prints its figures in. Domain-neutral: a statement of accounts, a price list or a lab table read the same way.
 */
import { headerCells, isTableLine, NO_HEADING, PERIOD_LINE, splitRow, YEAR, type TextUnit } from '../layout.js';
import { parseFigure, tableUnitOf, type Figure, type TableUnit } from './figures.js';

export interface GridColumn {
  /** The header as printed for this column ("2019", "2019 €m", "Q4 2018"), or "" when the table names none. */
  label: string;
  /** The year the header names, when it names one. */
  year?: number;
}

export interface GridRow {
  /** The row's label ("Net income"). */
  label: string;
  /** The heading of the rows' section, when one stands above it within the table ("SALES"). */
  section?: string;
  /** One per column, left to right (undefined where the row prints no figure for a column). */
  figures: Array<Figure | undefined>;
  /** The line as printed. */
  text: string;
}

export interface TableGrid {
  /** The heading above the table, when there is one ("CONSOLIDATED STATEMENTS OF INCOME"). */
  title?: string;
  /** The line naming the columns, as printed ("(Dollars in millions) 2019 2018 2017"). */
  header?: string;
  unit?: TableUnit;
  /** The one year the lines above a table name when its columns name none ("Range 2018" over "Low High"). */
  period?: number;
  columns: GridColumn[];
  rows: GridRow[];
}

const SHORT_YEAR_FORM = String.raw`FY?\s?['’]?\d\d`;
/** A year's short form ("F19", with a Y or a space after the F too), in a header or a question. */
export const SHORT_YEAR = new RegExp(String.raw`\b${SHORT_YEAR_FORM}\b`, 'g');
const SPLIT_YEAR_FORM = String.raw`(?:19|20)\d\d\s?[/–-]\s?\d\d(?!\d)`;
/** A year split over two ("2017/18", "2018-19"): a twelve-month period across two calendar years, named by the one it ends in. */
export const SPLIT_YEAR = new RegExp(String.raw`\b${SPLIT_YEAR_FORM}`, 'g');
/** A year as a column header prints it: "2019", a split year, or its short form. */
const PERIOD_YEAR = new RegExp(String.raw`\b(?:${SPLIT_YEAR_FORM}|(?:19|20)\d\d|${SHORT_YEAR_FORM})\b`, 'g');
/** The year a PERIOD_YEAR or SHORT_YEAR match names ("F19" → 2019). */
export function yearOf(printed: string): number {
  const digits = printed.replace(/\D/g, '');
  if (digits.length === 6) return Number(digits.slice(0, 2)) * 100 + Number(digits.slice(4)) + (digits.slice(4) < digits.slice(2, 4) ? 100 : 0);
  return digits.length === 4 ? Number(digits) : 2000 + Number(digits);
}
/** A sentence this long ends a table: prose has resumed. */
const MAX_SECTION_WORDS = 8;

/** The tables among a passage's units, in order. A table needs two rows with figures at least. */
export function readTableGrids(units: readonly TextUnit[]): TableGrid[] {
  const grids: TableGrid[] = [];
  let current: Draft | undefined;
  let section: string | undefined;
  /** The last column header of years seen, and where: rows that follow it after a break are still under it. */
  let lastHeader: { at: number; header: string; columns: GridColumn[]; unitLines: string[] } | undefined;
  const close = (at: number) => {
    if (current?.header && current.columns.some((c) => c.year !== undefined)) lastHeader = { at, header: current.header, columns: current.columns, unitLines: current.unitLines };
    if (current && current.rows.length >= 2) grids.push(finish(current));
    current = undefined;
    section = undefined;
  };
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (unit.kind === 'columns' || namesPeriods(unit)) {
      close(i);
      current = { ...titleAbove(units, i), header: unit.text, columns: columnsOf(unit.text), rows: [] };
      // Columns read by geometry that name no year, under a line naming one ("Season 2019" over its months): its period.
      const over = !current.columns.some((c) => c.year !== undefined) ? current.unitLines.slice(0, -1).join(' ').match(YEAR) ?? [] : [];
      if (new Set(over).size === 1) current.period = Number(over[0]);
      continue;
    }
    // The table's header printed again (a quarter's table under each year's heading): the next table starts.
    if (current?.header && current.rows.length > 0 && current.header.endsWith(unit.text) && !current.columns.some((c) => c.year !== undefined)) {
      close(i);
      continue;
    }
    // A label with only a footnote mark where figures would be ("Basic earnings per share (cents per share) (1)")
    // heads the rows below it, as a section.
    if (current && unit.kind === 'row' && footnoteOnly(unit.text, current.columns.length)) {
      section = splitRow(unit.text).label.replace(/:$/, '');
      continue;
    }
    // A period's line under a header of words ("… Gross | Allowance for Losses | … Net" / "December 31, 2019"): the
    // table's period. Between blocks of rows ("2018:" under the "2019:" quarters), the next table, of that period,
    // under the same header ("High Low" printed once over both).
    const period = PERIOD_LINE.exec(unit.text);
    if (period && current) {
      const named = current.header && current.columns.some((c) => c.label !== '') && !current.columns.some((c) => c.year !== undefined) ? current : undefined;
      if (named && current.rows.length === 0) {
        current.period = Number(period[1]);
        continue;
      }
      if (current.rows.length > 0) {
        close(i);
        if (named) current = { header: named.header, columns: named.columns, rows: [], unitLines: [], period: Number(period[1]) };
        continue;
      }
    }
    const row = rowOf(unit, current);
    if (row) {
      current ??= startedAt(units, i, row.figures.length, lastHeader);
      current.rows.push({ ...row, ...(section ? { section } : {}) });
      continue;
    }
    if (!current) continue;
    // A label the layout set on a line of its own above its figures ("Diluted weighted average common shares
    // outstanding" / "3,732 4,238 …").
    const next = units[i + 1] && rowOf(units[i + 1], current);
    if (next && next.label === '' && unit.text.split(' ').length <= MAX_ROW_WORDS && !/[.!?]$/.test(unit.text)) {
      current.rows.push({ ...next, label: unit.text.replace(/:$/, ''), text: `${unit.text} ${next.text}`, ...(section ? { section } : {}) });
      i++;
      continue;
    }
    // Between the header and the first row: the unit's line ("(in millions)"), and perhaps the first section's title.
    if (current.rows.length === 0) current.unitLines.push(unit.text);
    // A heading (or a short line ending in ':') within a table names the section of the rows below it; one followed by
    // a column header is the next table's title.
    const words = unit.text.split(' ').length;
    // So does a short line of words right above a row ("Research and development costs expensed"), as notes title them.
    const titlesRow = words <= MAX_SECTION_WORDS && !/[.!?]$/.test(unit.text) && units[i + 1]?.kind === 'row';
    const short = unit.kind === 'heading' || (unit.kind === 'sentence' && ((words <= MAX_SECTION_WORDS && /:$/.test(unit.text)) || (words <= 4 && !/[.!?]$/.test(unit.text)) || titlesRow));
    // A header's second line in brackets ("(Decrease)") titles no section.
    // The unit's line may run on into the section's ("(Dollars in millions) Deferred tax assets").
    if (short && units[i + 1]?.kind !== 'columns' && !/^\([^)]*\)$/.test(unit.text)) section = unit.text.replace(/^\((?:in|dollars|amounts)[^)]*\)\s*/i, '').replace(/:$/, '');
    // A header's second line naming each year's columns ("Amount % of total Amount % of total ($) (%)")
    // is no prose: the rows below are still the header's.
    else if (current.rows.length === 0 && unit.kind === 'sentence' && !/[.!?]$/.test(unit.text) && words <= MAX_ROW_WORDS) continue;
    else if (current.rows.length > 0 || unit.kind !== 'sentence' || words > MAX_SECTION_WORDS) close(i);
  }
  close(units.length);
  return grids;
}

type Draft = TableGrid & { unitLines: string[] };

/**
 * A line of two years or more and no amount that the line layout did not take for a column header (it printed "$" or
 * more words: "OPERATING COSTS Q4 2019 Q4 2018 $ CHANGE % CHANGE").
 */
function namesPeriods(unit: TextUnit): boolean {
  const years = unit.text.match(PERIOD_YEAR)?.length ?? 0;
  // A "row" whose figures are years, footnote marks and a unit in brackets is a header ("(in millions) 2019 2018 (4)
  // 2017 (4)", "Number of shares (1,000) 2019 2018 2017"), also with the units of change columns after the years
  // ("2019 2018 $ %": the "%" joins the last year's cell).
  if (unit.kind === 'row' && isTableLine(unit)) return years >= 2 && splitRow(unit.text).cells.every((c) => /^(?:(?:19|20)\d\d%?|\(\d\)|\(\$?1?,?000\))$/.test(c));
  return years >= 2 && unit.text.split(' ').length <= 20 && !/\d{1,3},\d{3}|\d\.\d|[.!?]$/.test(unit.text);
}

/**
 * The unit as a table row: a row line with two figures or more; within a table also a line of one figure and a nil
 * ("Other items(1) 17 —"), or a figure alone, that the line layout could not tell from prose.
 */
function rowOf(unit: TextUnit, table: Draft | undefined): Omit<GridRow, 'section'> | undefined {
  if (unit.kind === 'columns' || unit.kind === 'heading') return undefined;
  if (unit.kind === 'sentence' && (!table || unit.text.split(' ').length > MAX_ROW_WORDS || /[.!?]$/.test(unit.text))) return undefined;
  if (unit.kind === 'row' && !table && !isTableLine(unit)) return undefined;
  const split = splitRow(unit.text);
  let { label, cells } = split;
  // A footnote mark after the label ("Working capital (1) $207,599 …") is no figure: more cells than the columns.
  const columns = table?.columns.length ?? 0;
  if (columns > 0 && cells.length > columns && /^\(\d\)$/.test(cells[0])) [label, cells] = [`${label} ${cells[0]}`, cells.slice(1)];
  // The end of a bracket the label opened ("Indemnification receivable (see Note 13) $598 $2,410"): the label's.
  while (/^\d+\)$/.test(cells[0] ?? '') && (label.match(/\(/g)?.length ?? 0) > (label.match(/\)/g)?.length ?? 0)) [label, cells] = [`${label} ${cells[0]}`, cells.slice(1)];
  const figures = cells.map(parseFigure);
  if (figures.length === 0 || figures.some((f) => f === undefined)) return undefined;
  // More figures than the header has columns: a few (a change and its %), or a group under each ("Amount %").
  if (columns > 0 && figures.length > columns + 2 && (figures.length % columns !== 0 || figures.length > columns * 3)) return undefined;
  return { label: label.replace(/:$/, ''), figures, text: unit.text };
}
function footnoteOnly(text: string, columns: number): boolean {
  const { label, cells } = splitRow(text);
  // As many as the columns are small negatives, one a column ("Patent costs (1) (8) (9)").
  return label !== '' && cells.length > 0 && (cells.length === 1 || cells.length < columns) && cells.every((c) => /^\(\d\)$/.test(c));
}

/** A line within a table with more words than this is prose, not a row whose figures the layout missed. */
const MAX_ROW_WORDS = 20;

/**
 * A table whose first row has no header line right above it: a header broken over the lines above (wrappedHeader),
 * else the last header of years when it stands a few units up and names as many columns as the row has figures (a
 * sentence between the header and the rows, or a table the layout broke in two: "Total accrued receivables, net" …),
 * else columns named by words just above it (wordHeader).
 */
function startedAt(units: readonly TextUnit[], at: number, figures: number, last: { at: number; header: string; columns: GridColumn[]; unitLines: string[] } | undefined): Draft {
  const draft = headedAt(units, at, figures, last);
  const period = draft.columns.some((c) => c.year !== undefined) ? undefined : periodAbove(units, at);
  return period === undefined ? draft : { ...draft, period };
}

function headedAt(units: readonly TextUnit[], at: number, figures: number, last: { at: number; header: string; columns: GridColumn[]; unitLines: string[] } | undefined): Draft {
  const title = titleAbove(units, at);
  const wrapped = wrappedHeader(units, at, figures);
  if (wrapped.columns.length > 0) return { ...title, ...wrapped, rows: [] };
  if (last && at - last.at <= MAX_HEADER_DISTANCE && last.columns.length === figures) return { ...title, header: last.header, columns: last.columns, unitLines: [...last.unitLines, ...title.unitLines], rows: [] };
  return { ...title, ...(wordHeader(units, at, figures) ?? wrapped), rows: [] };
}
/** Units between a header and the rows still under it. */
const MAX_HEADER_DISTANCE = 6;

/**
 * The one year a short line over a table names, above the header lines of a table whose columns name none ("As of
 * December 31, 2018" over "Amortized Cost | Fair Value"): the table's period. None past a line of amounts (the table
 * before) or one naming other years.
 */
function periodAbove(units: readonly TextUnit[], at: number): number | undefined {
  for (let i = at - 1; i >= Math.max(0, at - MAX_PERIOD_DISTANCE); i--) {
    const text = units[i].text;
    if (/\d{1,3},\d{3}|\d\.\d/.test(text)) return undefined;
    const years = new Set(text.match(YEAR) ?? []);
    if (years.size > 1 || (years.size === 1 && text.split(' ').length > MAX_SECTION_WORDS)) return undefined;
    if (years.size === 1) return Number([...years][0]);
  }
  return undefined;
}
const MAX_PERIOD_DISTANCE = 4;

/**
 * A column header the page broke over short lines ("Stock at January 3," / "2020" / "December" / "28, 2018"),
 * read from the lines above a table's first row: when they name as many years as the row has figures, in the order
 * printed, those are the columns. Else no columns (the table reads by position).
 */
function wrappedHeader(units: readonly TextUnit[], at: number, figures: number): { header?: string; columns: GridColumn[] } {
  const lines: string[] = [];
  for (let i = at - 1; i >= 0 && lines.length < MAX_HEADER_LINES; i--) {
    const unit = units[i];
    // A date's day and year on a line of their own ("28, 2018") read as a row: a header's part, not a row.
    if (unit.kind === 'columns') break;
    if (unit.text.split(' ').length > MAX_HEADER_LINE_WORDS) {
      // The header run on after the sentence introducing the table ("… were as follows: Season ending June 1, 2019 …").
      const tail = /:\s*([^:]+)$/.exec(unit.text)?.[1];
      if (tail && tail.split(' ').length <= MAX_HEADER_LINE_WORDS * 2) lines.unshift(tail);
      break;
    }
    const datePart = unit.kind === 'row' && /^\d{1,2},? (?:19|20)\d\d$/.test(unit.text);
    if (unit.kind === 'row' && !datePart) break;
    lines.unshift(unit.text);
  }
  const header = lines.join(' ');
  const years = [...header.matchAll(YEAR)].map((m) => Number(m[0]));
  if (figures < 2 || years.length !== figures || new Set(years).size !== years.length) return { columns: [] };
  return { header, columns: years.map((year) => ({ label: String(year), year })) };
}
const MAX_HEADER_LINES = 6;
const MAX_HEADER_LINE_WORDS = 12;

/**
 * Columns named by words, not years, on the short lines just above a table's first row: "Low High"; a header the
 * page stacked over two lines ("Amortized Unrealized Unrealized Fair" / "Cost Gains Losses Value"), read column by
 * column; or one broken over lines ("Current 0 to 30" / "days past due … Total $'000 $'000"). Only when the words
 * fall into exactly as many names as the row has figures (namesOfColumns); else none, and the table reads by position.
 */
function wordHeader(units: readonly TextUnit[], at: number, figures: number): { header: string; columns: GridColumn[]; period?: number } | undefined {
  if (figures < 2) return undefined;
  const lines: string[] = [];
  for (let i = at - 1; i >= 0 && lines.length < 3; i--) {
    const unit = units[i];
    // The period's line right above the rows ("High Low" / "2019:" / "Fourth Quarter …"): periodAbove's to read.
    if (lines.length === 0 && PERIOD_LINE.test(unit.text)) continue;
    if (unit.kind === 'row' || unit.kind === 'columns' || /[.!?:]$/.test(unit.text) || unit.text.split(' ').length > MAX_HEADER_LINE_WORDS * 2) break;
    lines.unshift(unit.text);
  }
  const years = new Set(lines.join(' ').match(YEAR) ?? []);
  const period = years.size === 1 ? { period: Number([...years][0]) } : {};
  const found = (names: string[] | undefined, header: string) => (names ? { header, columns: names.map((label) => ({ label })), ...period } : undefined);
  const last = lines.at(-1);
  if (!last) return undefined;
  const repeated = lines.length >= 2 ? stackedNames(lines.at(-2)!, last, figures) : undefined;
  if (repeated) return found(repeated, lines.slice(-2).join(' '));
  const nearest = namesOfColumns(last, figures);
  if (nearest) {
    // The line above names as many columns, a word each: the header's first line ("Amortized" over "Cost").
    const above = lines.length >= 2 ? withoutUnitWords(lines.at(-2)!).split(' ') : [];
    const stacked = above.length === figures && above.every((w) => /^\p{Lu}\p{L}+$/u.test(w)) && nearest.every((n) => !n.includes(' '));
    return stacked ? found(nearest.map((n, k) => `${above[k]} ${n}`), lines.slice(-2).join(' ')) : found(nearest, last);
  }
  for (let n = 2; n <= lines.length; n++) {
    const header = lines.slice(-n).join(' ');
    const names = namesOfColumns(header, figures);
    if (names) return found(names, header);
  }
  return undefined;
}

/**
 * A header's words as column names, when they fall into exactly `count`: a name starts with a capital, or with a
 * number after a word that ends one ("0 to 30 days past due" / "31 to 60 …"); a word after a joining word ("of",
 * "than", "to") goes on the same name ("Balances without adoption of Topic 606"). A date before the names is the
 * table's ("30 June 2019 Current …"), and unit words are no name ("$'000").
 */
function namesOfColumns(line: string, count: number): string[] | undefined {
  const words = withoutUnitWords(line).replace(LEADING_DATE, '').trim().split(' ').filter(Boolean);
  const names: string[][] = [];
  for (const word of words) {
    const previous = names.at(-1)?.at(-1);
    const joined = previous !== undefined && (JOINING_WORDS.test(previous) || (/^\d/.test(word) && /^\d/.test(previous)));
    if (!previous || (!joined && /^[\p{Lu}\d]/u.test(word))) names.push([word]);
    else names.at(-1)!.push(word);
  }
  // Each name has a word of its own (not a date's, "For the years ended"), no year, and no name is printed twice.
  const named = names.map((n) => n.join(' '));
  if (names.length !== count || new Set(named).size !== count) return undefined;
  if (names.some((n) => n.some((w) => /^(?:19|20)\d\d\b/.test(w)) || !n.some((w) => /\p{L}{2}/u.test(w) && !DATE_WORDS.test(w) && !JOINING_WORDS.test(w)))) return undefined;
  return named;
}
/**
 * A header stacked over two lines whose second line repeats a word ("First Second Third Fourth" over "Quarter Quarter
 * Quarter Quarter Total"): the first line's words go, in order, on the repeated names.
 */
function stackedNames(above: string, line: string, count: number): string[] | undefined {
  const words = withoutUnitWords(line).split(' ');
  const tops = withoutUnitWords(above).split(' ');
  if (words.length !== count || !tops.every((w) => /^\p{Lu}\p{L}+$/u.test(w))) return undefined;
  const repeated = words.flatMap((w, i) => (words.indexOf(w) !== words.lastIndexOf(w) ? [i] : []));
  if (repeated.length !== tops.length || repeated.some((at, k) => k > 0 && at !== repeated[k - 1] + 1)) return undefined;
  const names = words.map((w, i) => (repeated.includes(i) ? `${tops[repeated.indexOf(i)]} ${w}` : w));
  return new Set(names).size === count ? names : undefined;
}
const JOINING_WORDS = /^(?:of|for|and|or|in|on|to|than|the|a|an|with|without|from|at|per|by|&)$/i;
const LEADING_DATE = /^(?:(?:as\s+(?:of|at)\s+)?\d{1,2}\s+\p{L}+\s+(?:19|20)\d\d|\p{L}+\s+\d{1,2},?\s+(?:19|20)\d\d)\s+/iu;
function withoutUnitWords(line: string): string {
  return line.replace(/(?:^|\s)(?:[$€£¥]\s?(?:['’]?000|m|mm|mn|bn|k)?|\(?\s*in\s+(?:thousands|millions|billions)\s*\)?|%|\(\d\))(?=\s|$)/gi, ' ').replace(/\s+/g, ' ').trim();
}

/** The heading just above a table (at most two units up, before any row) and the unit its lines name. */
function titleAbove(units: readonly TextUnit[], at: number): { title?: string; unitLines: string[] } {
  const lines: string[] = [];
  let title: string | undefined;
  for (let i = at - 1; i >= Math.max(0, at - 2); i--) {
    const unit = units[i];
    if (unit.kind === 'row' || unit.kind === 'columns') break;
    lines.unshift(unit.text);
    // A short line ending on a colon titles the table as a heading does ("7. INCOME TAXES:").
    const titled = unit.kind === 'heading' || (/:$/.test(unit.text) && unit.text.split(' ').length <= MAX_SECTION_WORDS);
    if (titled && !title) title = unit.text;
  }
  lines.push(units[at].text);
  return { ...(title ? { title } : {}), unitLines: lines };
}

/**
 * A column header's columns, left to right: one per year it names ("2019 €m" → 2019), and one per run of words
 * between or after the years that names a column of its own ("2019 Change 2018", "2019 2018 % Change"). Words before
 * the first year head the labels; dates, periods and unit words belong to their year.
 */
function columnsOf(header: string): GridColumn[] {
  // Read by the page's geometry: a column per cell, of the year it names when it names one.
  // A column of note references ("Notes") holds no figure of the rows': the rows' note numbers are read as such.
  const cells = headerCells(header)?.filter((cell) => !NOTES_COLUMN.test(cell));
  if (cells) return cells.map((label) => {
    if (label === NO_HEADING) return { label: '' };
    const named = label.match(PERIOD_YEAR) ?? [];
    return named.length === 1 ? { label, year: yearOf(named[0]) } : { label };
  });
  const years = [...header.matchAll(PERIOD_YEAR)];
  const columns: GridColumn[] = [];
  // The word before the first year, when it stands before each year ("Period 2019 Period 2018"), is the years' own.
  const lead = years.length > 0 ? header.slice(0, years[0].index).trim().split(' ').at(-1)?.toLowerCase() : undefined;
  const runs = years.map((match, i) => {
    const run = header.slice(match.index + match[0].length, years[i + 1]?.index ?? header.length).trim();
    return lead && i + 1 < years.length && run.toLowerCase().endsWith(lead) ? run.slice(0, -lead.length).trim() : run;
  });
  // Words after every year ("Season 2019 Tickets Season 2018 Tickets % Inc (Dec)") are the years' own too.
  const own = runs.length >= 2 && runs[0] !== '' && runs.every((r) => r.startsWith(runs[0])) ? runs[0].length : 0;
  years.forEach((match, i) => {
    columns.push({ label: match[0], year: yearOf(match[0]) });
    const words = runs[i].slice(own).replace(UNIT_WORDS, ' ').replace(/[\s,;()]+/g, ' ').trim();
    if (words.split(' ').some((w) => (/\p{L}{3}/u.test(w) && !DATE_WORDS.test(w)) || w === '%')) columns.push({ label: words });
  });
  return columns;
}
const NOTES_COLUMN = /^notes?$/i;
const UNIT_WORDS = /(?:[$€£¥]\s?(?:m|mm|mn|bn|k|000|['’]000)?|\b(?:m|mm|mn|bn|USD|EUR|GBP|RMB)\b|\(000s?\)|\bin (?:thousands|millions|billions)\b)/gi;
/** Words of a date or period that belong to the year beside them ("30 June 2019", "December 31,", "Q4 2018"). */
const DATE_WORDS = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|year|years|ended|ending|as|of|at|restated\d*|unaudited|audited|actual|reported|note|notes|q[1-4])$/i;

function finish(table: Draft): TableGrid {
  const { unitLines, ...grid } = table;
  const width = Math.max(...grid.rows.map((r) => r.figures.length));
  // No header, or one naming fewer columns than the rows print: columns by position.
  const columns = grid.columns.length >= width ? grid.columns : Array.from({ length: width }, (_, i) => grid.columns[i] ?? { label: '' });
  // A currency sign the rows print counts as the table's when its title and header name none.
  const unit = tableUnitOf([...unitLines, ...grid.rows.slice(0, 3).map((r) => (/[$€£¥]/.exec(r.text)?.[0] ?? ''))]);
  const percentRows = grid.rows.every((r) => r.figures.every((f) => !f || f.percent || f.value === undefined));
  return { ...grid, columns, ...(unit ? { unit } : percentRows ? { unit: { multiplier: 1, percent: true } } : {}) };
}
