/**
 * Tables read as tables: the lines of a page or passage (core/rag/layout.ts splits them into headings, column
 * headers, rows and sentences) as rows × columns, each row a label (with the section heading above it, "REVENUES" of
 * "North America") and its figures, each column a header (a period when it names a year), and the unit the table
 * prints its figures in. Domain-neutral: a financial statement, a price list or a lab table read the same way.
 */
import { isTableLine, splitRow, type TextUnit } from '../layout.js';
import { parseFigure, tableUnitOf, type Figure, type TableUnit } from './figures.js';

export interface GridColumn {
  /** The header as printed for this column ("2019", "2019 €m", "Fiscal 2018"), or "" when the table names none. */
  label: string;
  /** The year the header names, when it names one. */
  year?: number;
}

export interface GridRow {
  /** The row's label ("Net income"). */
  label: string;
  /** The heading of the rows' section, when one stands above it within the table ("REVENUES"). */
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
  columns: GridColumn[];
  rows: GridRow[];
}

const YEAR = /\b(?:19|20)\d\d\b/g;
/** A sentence this long ends a table: prose has resumed. */
const MAX_SECTION_WORDS = 8;

/** The tables among a passage's units, in order. A table needs two rows with figures at least. */
export function readTableGrids(units: readonly TextUnit[]): TableGrid[] {
  const grids: TableGrid[] = [];
  let current: (TableGrid & { lines: string[] }) | undefined;
  let section: string | undefined;
  const close = () => {
    if (current && current.rows.length >= 2) grids.push(finish(current));
    current = undefined;
    section = undefined;
  };
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (unit.kind === 'columns') {
      close();
      current = { ...titleAbove(units, i), header: unit.text, columns: columnsOf(unit.text), rows: [], lines: [] };
      continue;
    }
    if (unit.kind === 'row' && isTableLine(unit)) {
      if (!current) current = { ...titleAbove(units, i), columns: [], rows: [], lines: [] };
      const { label, cells } = splitRow(unit.text);
      current.rows.push({ label: label.replace(/:$/, ''), ...(section ? { section } : {}), figures: cells.map(parseFigure), text: unit.text });
      continue;
    }
    if (!current) continue;
    // A heading (or a short line ending in ':') within a table names the section of the rows below it; one followed by
    // a column header is the next table's title.
    const short = unit.kind === 'heading' || (unit.kind === 'sentence' && unit.text.split(' ').length <= MAX_SECTION_WORDS && /:$/.test(unit.text));
    if (short && units[i + 1]?.kind !== 'columns') section = unit.text.replace(/:$/, '');
    else if (unit.kind === 'row') continue; // a one-figure line inside a table ("Total 12") is left out, not an end
    else close();
  }
  close();
  return grids;
}

/** The heading just above a table (at most two units up, before any row) and the unit its lines name. */
function titleAbove(units: readonly TextUnit[], at: number): { title?: string; unitLines: string[] } {
  const lines: string[] = [];
  let title: string | undefined;
  for (let i = at - 1; i >= Math.max(0, at - 2); i--) {
    const unit = units[i];
    if (unit.kind === 'row' || unit.kind === 'columns') break;
    lines.unshift(unit.text);
    if (unit.kind === 'heading' && !title) title = unit.text;
  }
  lines.push(units[at].text);
  return { ...(title ? { title } : {}), unitLines: lines };
}

/**
 * A column header's columns: one per year it names ("2019 €m" → 2019), then the words after the last year when they
 * name a column of their own ("2019 2018 % Change": a third column, "% Change"); unit words are no column.
 */
function columnsOf(header: string): GridColumn[] {
  const years = [...header.matchAll(YEAR)];
  const columns: GridColumn[] = years.map((match) => ({ label: match[0], year: Number(match[0]) }));
  const last = years.at(-1);
  const after = last ? header.slice(last.index + last[0].length).replace(UNIT_WORDS, ' ').replace(/[\s,;()]+/g, ' ').trim() : '';
  if (/\p{L}{3}|%/u.test(after)) columns.push({ label: after });
  return columns;
}
const UNIT_WORDS = /(?:[$€£¥]\s?(?:m|mm|mn|bn|k|000|'000)?|\b(?:m|mm|mn|bn|USD|EUR|GBP|RMB)\b|\(000s?\)|\bin (?:thousands|millions|billions)\b)/gi;

function finish(table: TableGrid & { lines: string[]; unitLines?: string[] }): TableGrid {
  const { lines: _lines, unitLines, ...grid } = table;
  const width = Math.max(...grid.rows.map((r) => r.figures.length));
  // No header, or one naming fewer columns than the rows print: columns by position.
  const columns = grid.columns.length >= width ? grid.columns : Array.from({ length: width }, (_, i) => grid.columns[i] ?? { label: '' });
  // A currency sign the rows print counts as the table's when its title and header name none.
  const unit = tableUnitOf([...(unitLines ?? []), ...grid.rows.slice(0, 3).map((r) => (/[$€£¥]/.exec(r.text)?.[0] ?? ''))]);
  const percentRows = grid.rows.every((r) => r.figures.every((f) => !f || f.percent || f.value === undefined));
  return { ...grid, columns, ...(unit ? { unit } : percentRows ? { unit: { multiplier: 1, percent: true } } : {}) };
}
