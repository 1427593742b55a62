/**
 * The arithmetic a question asks of a table's cells, computed and shown: "(8,985 − 6,476) / 6,476 = 38.7%". Each
 * operation takes its operands in the order the question gives them (the later period second for a change).
 */
import { formatNumber, roundTo } from './figures.js';

/**
 * The arithmetic operations, a look-up, the comparisons across periods (period-comparison.ts) and the questions about a
 * table's shape (table-structure.ts: its periods, the items of a section); the last four compute nothing.
 */
export type TableOperation = 'lookup' | 'change' | 'percent-change' | 'average' | 'sum' | 'difference' | 'ratio' | 'share' | 'count' | 'compare' | 'periods' | 'items';

export interface Computed {
  value: number;
  /** The result is a percentage (percent change, a share of a total). */
  percent: boolean;
  /** How it was computed, with the operands as printed: "(8,985 − 6,476) / 6,476 = 38.71%". */
  trace: string;
}

/** Places a computed figure keeps: the most its operands print, and at least two. */
const MIN_DECIMALS = 2;

/**
 * The operation over `values` (as printed in the table; a percent cell's 30.8 is 30.8): a change or percent change
 * from values[0] (the earlier) to values[1] (the later); a difference, ratio or share of values[0] to values[1]; an
 * average or sum of all. Undefined when the operation cannot be done (too few operands, a division by zero).
 */
export function compute(operation: TableOperation, values: readonly number[], decimals = 0): Computed | undefined {
  const places = Math.max(MIN_DECIMALS, decimals);
  const show = (v: number) => (v < 0 ? `(${formatNumber(v, places)})` : formatNumber(v, places));
  const result = (value: number, percent: boolean, expression: string): Computed => {
    const shown = `${formatNumber(value, places)}${percent ? '%' : ''}`;
    return { value: roundTo(value, places), percent, trace: `${expression} = ${shown}` };
  };
  const [a, b] = values;
  switch (operation) {
    case 'lookup':
      return values.length === 1 ? { value: a, percent: false, trace: show(a) } : undefined;
    case 'change':
      return values.length === 2 ? result(b - a, false, `${show(b)} − ${show(a)}`) : undefined;
    case 'percent-change':
      return values.length === 2 && a !== 0 ? result(((b - a) / Math.abs(a)) * 100, true, `(${show(b)} − ${show(a)}) / ${show(Math.abs(a))}`) : undefined;
    case 'difference':
      return values.length === 2 ? result(a - b, false, `${show(a)} − ${show(b)}`) : undefined;
    case 'ratio':
      return values.length === 2 && b !== 0 ? result(a / b, false, `${show(a)} / ${show(b)}`) : undefined;
    case 'share':
      // The ratio too: a share is asked as a fraction as often as a percentage.
      return values.length === 2 && b !== 0 ? result((a / b) * 100, true, `${show(a)} / ${show(b)} = ${formatNumber(a / b, 4)}`) : undefined;
    case 'sum':
      return values.length >= 2 ? result(values.reduce((s, v) => s + v, 0), false, values.map(show).join(' + ')) : undefined;
    case 'average':
      return values.length >= 2 ? result(values.reduce((s, v) => s + v, 0) / values.length, false, `(${values.map(show).join(' + ')}) / ${values.length}`) : undefined;
    case 'count':
    case 'compare':
      return undefined;
  }
}
