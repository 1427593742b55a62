/**
 * The structure of extracted text, line by line: the PDF text layer gives one line per visual line, so a table
 * arrives as one line per row ("Total households 29,505 28,120"), its column header as a line of years
 * ("(Thousands) 2018 2017 2016") and a table's title as a short title-case line ("POPULATION BY REGION").
 * Chunking keeps those lines whole (a row is never glued to the next one into a 150-word "sentence") and carries
 * the section title and column header into each chunk; the answerer quotes rows with their header.
 */
import { splitSentences, STOPWORDS } from './text.js';

export type UnitKind = 'sentence' | 'row' | 'columns' | 'heading';

export interface TextUnit {
  kind: UnitKind;
  text: string;
}

/**
 * One whitespace-separated table cell: 1,577 · (1,577) · $ · $5,363 · 30.8% · (9.4%) · 0.55 · — or $— (nil), "n/a" or "nm" (not
 * meaningful: a change column's nil), or a percent sign the text layer set apart from its number ("4,693 10 %": a
 * report's column of changes). A nil word adds no figure: a row still needs figures (isTableRow).
 */
const CELL = /^(?:\$|%|\$?\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?|\(-?\d[\d,]*(?:\.\d+)?%\)|\$?[—–-]|n\/a|nm|n\.m\.)$/i;
/** A year as printed, 1900-2099 (global: for match, replace and matchAll, never test). */
export const YEAR = /\b(?:19|20)\d\d\b/g;


/**
 * Between the cells of a column header that extraction read by the page's geometry ("Total | Less Than 1 Year | 1-3
 * Years"): headings a report wrapped over lines within their columns, whose words a text layer interleaves.
 */
export const CELL_SEPARATOR = ' | ';
/** Such a header's cell over a column printed without a heading. */
export const NO_HEADING = '—';
/** A header cell longer than this is prose that happens to hold the separator. */
const MAX_HEADER_CELL_WORDS = 10;

/** The cells of a header read by columns, or undefined for any other line. */
export function headerCells(line: string): string[] | undefined {
  if (!line.includes(CELL_SEPARATOR)) return undefined;
  const cells = line.split(CELL_SEPARATOR).map((c) => c.trim());
  const fits = cells.filter((c) => c !== NO_HEADING).length >= 2 && cells.every((c) => c !== '' && c.split(' ').length <= MAX_HEADER_CELL_WORDS);
  return fits && !/\d{1,3},\d{3}|\d\.\d/.test(line) ? cells : undefined;
}

/** A line of years naming the columns of the table below it: "Year Ended December 31, 2017 2018 2019". */
export function isColumnHeader(line: string): boolean {
  if (headerCells(line)) return true;
  const years = line.match(YEAR)?.length ?? 0;
  if (years < 2 || line.split(/\s+/).length > 14) return false;
  // Figures other than years and day numbers ("December 31,") make it a row, not a header; a sentence ending
  // mid-line ("…on October 28, 1998. The legislation implements two 1996 World") makes it wrapped prose.
  return !/\d{1,3},\d{3}|\d\.\d|\$/.test(line) && !/(?:\p{Ll}{2}|\d)[.!?]\s+\p{Lu}/u.test(line);
}

/** A table row: a label followed by figures, or figures only (a row whose label wrapped onto the line before). */
export function isTableRow(line: string): boolean {
  if (isColumnHeader(line)) return false;
  // Lines reach here with single spaces (splitUnits), so splitting on ' ' is a token split, linear in the line.
  const tokens = cellTokens(line);
  const start = cellsStart(tokens);
  if (start === tokens.length) return false;
  const label = tokens.slice(0, start).join(' ');
  // A sentence that happens to end in a number; not a label's lone leader dot ("Systems . 1,603,001 1,742,043").
  if (label.endsWith('.') && !label.endsWith(' .')) return false;
  const cells = tokens.slice(start);
  const numeric = cells.filter((c) => /\d/.test(c));
  if (numeric.length >= 2) return true;
  // One figure: a row only when it looks like an amount and the label is short ("Total assets $ 59,268"). A comma
  // after it is the sentence running on ("… comments on this proposed AD by September 21," / "2020. ADDRESSES: …").
  return numeric.length === 1 && /[,$()%]/.test(cells.join(' ').replace(/,$/, '')) && label.split(' ').length <= 10;
}

/** A line's tokens for its cells: without dot leaders, a bracket set apart from its figure joined to it ("(3,709 )"). */
function cellTokens(line: string): string[] {
  return withoutLeaders(line).replace(/(\d) \)/g, '$1)').replace(/\( (?=\d)/g, '(').split(' ');
}

/** Dot leaders: four dots or more, spaced or not ("Late payment . . . . . 31", "Contents ........ 3"). */
const LEADERS = /(?:\.\s?){4,}/;

/** Dot leaders standing between a row's words and cells as words of their own ("Labor ...... $85 .... $6,205."). */
const LEADER_WORDS = / (?:\.{2,}|\. \.(?: \.)+)(?= |$)/g;

/**
 * A line without the dot leaders between its cells, and without the full stop after its last figure when it had
 * leaders: a price list's row ("AFM revisions ...... 1 work-hour × $85 per hour = $85 ...... $0 ...... $85 ......
 * $6,205.", a Federal Register notice's costs) read as a row. Without leaders a full stop still ends a sentence.
 */
export function withoutLeaders(line: string): string {
  const bare = line.replace(LEADER_WORDS, '');
  return bare === line ? line : bare.replace(/(\d)\.$/, '$1');
}

/**
 * An entry of a table of contents or an index: dot leaders, and no figure but page numbers ("6 Late payment . . . . 31
 * Alternative minimum . . . . 19"; "12, 29", "9-15"), or without leaders a run of numbered section titles
 * (listsSections). It tells where a topic is, not what it says. A price list's leaders lead to amounts ("Installation
 * .... $85"), which make it no index.
 */
export function isIndexEntry(text: string): boolean {
  if (!LEADERS.test(text)) return listsSections(text);
  return (text.match(/\S*\d\S*/g) ?? []).every((figure) => /^\d{1,4}(?:[-–]\d{1,4})?,?$/.test(figure));
}

/** A section's number and the first word of its title: "4.5 OCR Tools", "1 Foo", after a bullet OCR read as "=" or "»". */
const SECTION_ENTRY = /(?:^|[\s|=»•*])\d{1,2}(?:\.\d{1,2}){0,3} \p{Lu}/gu;

/**
 * A table of contents without leaders, its lines run together: three numbered section titles or more, which make up
 * most of it ("= 4.5 OCR Tools | = 5 Workarounds | » 5.1 Forcing better input", "1 Foo 2 2 Bar 2 3 Baz 2"). A
 * sentence that happens to hold a few such numbers ("won 24 Carolina 10 …") has many more words around them.
 */
function listsSections(text: string): boolean {
  const entries = text.match(SECTION_ENTRY)?.length ?? 0;
  return entries >= 3 && text.split(' ').length <= 6 * entries;
}

/** Where a line's run of cells starts (its length when it ends in none); a "%" before any figure is the label's ("Margin %"). */
function cellsStart(tokens: string[]): number {
  let start = tokens.length;
  while (start > 0 && CELL.test(tokens[start - 1])) start--;
  while (start < tokens.length && tokens[start] === '%') start++;
  // A date ending the label ("Net balances at September 30, 2018 49,786 …", "Balance at 31 March 2019 1,234") is the
  // label's, when figures follow it.
  if (MONTH.test(tokens[start - 1] ?? '')) {
    const date = /^\d{1,2},?$/.test(tokens[start] ?? '') && LABEL_YEAR.test(tokens[start + 1] ?? '') ? 2 : LABEL_YEAR.test(tokens[start] ?? '') ? 1 : 0;
    if (date > 0 && start + date < tokens.length) start += date;
  }
  return start;
}
/** A month's name as printed, in full or short ("December", "Dec."), for a regular expression's source. */
export const MONTH_NAME = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const MONTH = new RegExp(`^${MONTH_NAME}$`, 'i');
/**
 * A line naming only a period, as a table's rows of one period are headed: "2019:", "December 31, 2019", "As of 30 June
 * 2019". Its year is the first group.
 */
export const PERIOD_LINE = new RegExp(String.raw`^(?:(?:as of|at)\s+)?(?:${MONTH_NAME}\s+\d{1,2},?\s+|\d{1,2}\s+${MONTH_NAME}\s+)?((?:19|20)\d\d):?$`, 'iu');
const LABEL_YEAR = /^(?:19|20)\d\d,?$/;

/** A table row's label and the figures ending it ("$" signs dropped): "Total assets $ 59,268 $ 55,556". */
export function splitRow(row: string): { label: string; cells: string[] } {
  const tokens = cellTokens(row);
  const start = cellsStart(tokens);
  const cells: string[] = [];
  for (const token of tokens.slice(start)) {
    if (token === '%' && cells.length > 0) cells[cells.length - 1] += '%';
    else if (token !== '$') cells.push(token);
  }
  // Currency signs set before the label ("$ $ $ Realized gains …": the signs of the columns above) name nothing.
  return { label: tokens.slice(0, start).join(' ').replace(/ \.$/, '').replace(/^(?:[$€£¥] )+/, ''), cells };
}

/** A column header, or a row with two figures or more (not a broken date line such as "August 29," read as a row). */
export function isTableLine(unit: TextUnit): boolean {
  return unit.kind === 'columns' || (unit.kind === 'row' && splitRow(unit.text).cells.length >= 2);
}

/**
 * A column header the text layer broke over lines ("August 29," / "2021 August 30," / "2020 ASSETS"): the years of the
 * short lines just above a table's first row, as a line of years, when there are as many as the row has figures.
 */
export function inferredColumns(above: TextUnit[], firstRow: string): string | undefined {
  const lines: string[] = [];
  for (let i = above.length - 1; i >= 0 && lines.length < 6 && above[i].text.split(' ').length <= 16; i--) lines.unshift(above[i].text);
  const years = [...new Set(lines.join(' ').match(YEAR) ?? [])];
  const cells = splitRow(firstRow).cells.length;
  if (years.length >= 2 && years.length === cells) return years.join(' ');
  // A header run on after the sentence introducing the table ("… for the Group: $ million 2019 2018 Change (%)"),
  // kept as printed: its words name columns beside the years.
  const tail = /:\s*([^:]+)$/.exec(above.at(-1)?.text ?? '')?.[1];
  const tailYears = new Set(tail?.match(YEAR) ?? []);
  return tail && tail.split(' ').length <= 24 && tailYears.size >= 2 && tailYears.size <= cells ? tail : undefined;
}

/**
 * A table's header of names ("State / Territory Permit Handgun Long Gun … Totals"), when it has no line of years: the
 * line just above its first row, of words alone (no figure), at least as many as the row has figures, and not more
 * than MAX_NAMED_COLUMNS words.
 */
export function namedColumns(above: TextUnit[], firstRow: string): string | undefined {
  const line = above.at(-1)?.text;
  if (!line || /\d/.test(line)) return undefined;
  const words = line.split(' ').length;
  return words >= splitRow(firstRow).cells.length && words <= MAX_NAMED_COLUMNS ? line : undefined;
}
const MAX_NAMED_COLUMNS = 60;

/** A heading: a short line in title case or capitals, not ending like a sentence or a label ("Assets:"). */
export function isHeading(line: string): boolean {
  const words = line.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 10 || /[.,;:]$/.test(line) || !/\p{L}{3}/u.test(line)) return false;
  if (isTableRow(line) || isColumnHeader(line) || opensWithoutClosing(line) || CLAUSE_AFTER_COMMA.test(line)) return false;
  const significant = words.filter((w) => /^\p{L}{4,}/u.test(w) && !STOPWORDS.has(w.toLowerCase()));
  if (significant.length === 0) return false;
  return significant.every((w) => /^\p{Lu}/u.test(w));
}

/**
 * A comma and then an article or a pronoun: a sentence's clause, not a title ("On October 29, 2018, a Boeing Model",
 * the first line of a paragraph in a narrow column). Titles join a list's last item with a conjunction ("Property,
 * Plant, and Equipment"), which stays a heading.
 */
const CLAUSE_AFTER_COMMA = /, (?:a|an|the|this|these|that|those|it|its|we|our|they|their|he|she|which|who) /;

/**
 * A quotation or bracket the line opens and does not close, with words after it (two, or one of 4 letters): the
 * line wraps on ("Title I, the “WIPO Copyright and Performances and Phonograms" / "Treaties Implementation Act of
 * 1998,” implements …"), so it is no heading. A bracket OCR read from a smudge ("GUT BIO JOGHURT PUR (EE") opens
 * nothing that goes on.
 */
function opensWithoutClosing(line: string): boolean {
  // German quotes open with „ and close with “; English ones open with “ and close with ”.
  const quote = line.includes('„') ? unclosed(line, '„', '“') : unclosed(line, '“', '”');
  const straight = (line.match(/"/g)?.length ?? 0) % 2 === 1 ? line.lastIndexOf('"') : -1;
  const goesOn = (at: number) => {
    const after = line.slice(at + 1).split(' ').filter(Boolean);
    return after.length >= 2 || /\p{L}{4}/u.test(after[0] ?? '');
  };
  return [quote, unclosed(line, '(', ')'), straight].some((at) => at >= 0 && goesOn(at));
}

/** Where the first opener that no closer after it matches stands, or -1. */
function unclosed(line: string, open: string, close: string): number {
  const openers: number[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] === open) openers.push(i);
    else if (line[i] === close) openers.pop();
  }
  return openers.length > 0 ? openers[0] : -1;
}

/**
 * A block of lines (a paragraph) as units: table rows, column headers and headings one per line, the prose between
 * them split into sentences. A title-case line counts as a heading only where a sentence could not be running on
 * (at the block's start or after a sentence end, a row or another heading), so a wrapped line of prose stays prose.
 */
export function splitUnits(block: string): TextUnit[] {
  const units: TextUnit[] = [];
  let prose: string[] = [];
  const flush = () => {
    for (const sentence of splitSentences(prose.join(' '))) units.push({ kind: 'sentence', text: sentence });
    prose = [];
  };
  for (const raw of block.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    const afterBreak = prose.length === 0 || /[.!?:;]["'”’)]?$/.test(prose[prose.length - 1]);
    const kind: UnitKind | undefined = isColumnHeader(line) ? 'columns' : isTableRow(line) ? 'row' : afterBreak && isHeading(line) ? 'heading' : undefined;
    if (!kind) {
      prose.push(line);
      continue;
    }
    flush();
    units.push({ kind, text: line });
  }
  flush();
  return units;
}
