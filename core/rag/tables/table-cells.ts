/**
 * What a table's answer is made of (the cells it read, its direct line) and the words a row label is matched by:
 * shared by the figure answers (table-answer.ts) and the answers about a table's shape (table-structure.ts).
 */
import { YEAR } from '../layout.js';
import { termKey, wordTokens } from '../text.js';
import type { Computed, TableOperation } from './table-arithmetic.js';
import type { GridColumn, GridRow, TableGrid } from './table-grid.js';

export interface TableCell {
  grid: TableGrid;
  row: GridRow;
  column: GridColumn;
  value: number;
}

export interface TableAnswer {
  /** The direct answer: "Net income, 2019: $8,985 million", "Change in visitors from 2018 to 2019: 1,200 thousand". */
  line: string;
  operation: TableOperation;
  /** The cells it read, in the order the computation uses them. */
  cells: TableCell[];
  computed?: Computed;
  /** How sure the row match is, 0..1 (the weighted share of the asked words the row's label holds, times its precision). */
  confidence: number;
}

/**
 * A label's words as matching keys, function words left out. Not the retrieval stop list: "other", "more" and "most"
 * tell rows apart ("Other income" is not "Income").
 */
export function keysOf(text: string): string[] {
  return wordTokens(text.replace(YEAR, ' ')).filter((w) => !FUNCTION_WORDS.has(w) && !/^\d+$/.test(w)).map(termKey);
}
export const FUNCTION_WORDS = new Set('a an the of and or in on at by for to from with as its their our per during'.split(' '));

