import type { ContextPassage } from '../../core/index.js';
import { inferredColumns, isTableLine, splitRow, splitUnits, type TextUnit } from '../../core/index.js';
import { normalizeLabel, type LineItem } from './financial-line-items.js';
import { statementOf, type AmountUnit, type Statement } from './statements.js';

/**
 * A statement's line items by fiscal year, read from retrieved passages: chunking keeps a table's rows as lines and
 * repeats the statement's title and column years at the top of each chunk (core/rag/chunking.ts; rows split by core/rag/layout.ts), so a row's figures
 * line up with the years of the column header above it ("2016 2017" / "Accounts payable $ 25,309 $ 34,616").
 */

/** What rows are read from: a passage given to the answerer, or a retrieved chunk. */
export type RowSource = Pick<ContextPassage, 'filename' | 'page' | 'text'>;

export interface StatementRow<P extends RowSource = ContextPassage> {
  passage: P;
  /** The row as printed. */
  text: string;
  /** The column header it was read under. */
  header: string;
  label: string;
  values: Map<number, number>;
  statement?: Statement;
  unit?: AmountUnit;
}

export interface FoundValue<P extends RowSource = ContextPassage> {
  value: number;
  row: StatementRow<P>;
}

const UNIT = /\bin (thousands|millions|billions)\b|\((thousands|millions|billions)\)/i;

function cellValue(cell: string): number | undefined {
  if (/^[—–-]$/.test(cell)) return 0;
  if (cell.endsWith('%')) return undefined;
  const digits = cell.replace(/[$,()]/g, '');
  const value = Number(digits);
  if (!Number.isFinite(value)) return undefined;
  return /^\(|^-/.test(cell.replace('$', '')) ? -Math.abs(value) : value;
}

/** The row's label and its figures, when each figure sits under a year of the header. */
function readRow(row: string, header: string): { label: string; values: Map<number, number> } | undefined {
  const years = (header.match(/\b(?:19|20)\d\d\b/g) ?? []).map(Number);
  const split = splitRow(row);
  let { label, cells } = split;
  // A caption ending in figures of its own ("net of accumulated depreciation of $19,800 and $17,606"): the row's
  // figures are the last ones.
  if (cells.length > years.length && /\b(and|of)$/.test(label)) [label, cells] = [`${label} ${cells.slice(0, -years.length).join(' ')}`, cells.slice(-years.length)];
  if (years.length === 0 || cells.length !== years.length || new Set(years).size !== years.length) return undefined;
  const values = new Map<number, number>();
  for (const [i, cell] of cells.entries()) {
    const value = cellValue(cell);
    if (value === undefined) return undefined;
    values.set(years[i], value);
  }
  return { label: normalizeLabel(label), values };
}

/** Every table row of the passages whose figures line up with a column header's years. */
export function statementRows<P extends RowSource>(passages: P[]): StatementRow<P>[] {
  const unitOfPage = new Map<string, AmountUnit>();
  for (const p of passages) {
    const unit = UNIT.exec(p.text);
    if (unit) unitOfPage.set(`${p.filename}\u0000${p.page}`, (unit[1] ?? unit[2]).toLowerCase() as AmountUnit);
  }
  const rows: StatementRow<P>[] = [];
  for (const passage of passages) {
    let header: string | undefined;
    let statement: Statement | undefined;
    let sinceTable: TextUnit[] = [];
    for (const unit of splitUnits(passage.text)) {
      if (unit.kind === 'heading') statement = statementOf(unit.text) ?? statement;
      if (isTableLine(unit)) {
        if (unit.kind === 'row') header ??= inferredColumns(sinceTable, unit.text);
        sinceTable = [];
      } else sinceTable.push(unit);
      if (unit.kind === 'columns') header = unit.text;
      else if (unit.kind === 'row' && header) {
        const read = readRow(unit.text, header);
        if (read) rows.push({ passage, text: unit.text, header, statement, unit: unitOfPage.get(`${passage.filename}\u0000${passage.page}`), ...read });
      }
    }
  }
  return rows;
}

/**
 * The item's value in the fiscal year from the best row naming it: a row of the item's own statement before one of an
 * unknown statement (never one of another statement), then the best-ranked label wording, then the best-retrieved
 * passage. Undefined when no row names it for that year, or when rows equally good disagree (better no figure than a
 * guess).
 */
export function lookUp<P extends RowSource>(rows: StatementRow<P>[], item: LineItem, year: number): FoundValue<P> | undefined {
  const ranked = rows.flatMap((row) => {
    if (!row.values.has(year)) return [];
    if (item.statement && row.statement && row.statement !== item.statement) return [];
    const wording = item.labels.findIndex((label) => label.test(row.label));
    if (wording < 0) return [];
    const sameStatement = item.statement !== undefined && row.statement === item.statement ? 0 : 1;
    // Balance sheets print two year-ends; a balance line in a table of more years is a roll-forward or a cash-flow change.
    const balanceShape = item.statement === 'balance' && sameStatement === 1 && row.values.size !== 2 ? 1 : 0;
    return [{ row, key: sameStatement * 100 + wording * 2 + balanceShape }];
  });
  if (ranked.length === 0) return undefined;
  const bestKey = Math.min(...ranked.map((r) => r.key));
  // The shortest label is the line itself ("Purchases of property and equipment"), longer ones a variant of it
  // ("…, net of proceeds from sales and incentives") in another table.
  const tied = ranked.filter((r) => r.key === bestKey);
  const shortest = Math.min(...tied.map((r) => r.row.label.length));
  const best = tied.filter((r) => r.row.label.length === shortest);
  const values = new Set(best.map((r) => r.row.values.get(year)));
  if (values.size > 1) return undefined;
  const row = best[0].row;
  const printed = row.values.get(year)!;
  return { value: item.magnitude ? Math.abs(printed) : printed, row };
}
