/**
 * Questions that compare one row's figures across its periods: "In which year was X larger?", "In which years was X
 * less than 100?", "How many years did X exceed $1,500?". Their triggers are data, one language each, like the table
 * intents; the answer names the periods with the figures that decide.
 */
import { formatNumber, type TableUnit } from './figures.js';

export interface PeriodComparison {
  /** Which periods (or the one) meet it, or how many do. */
  asks: 'which' | 'count';
  /** Above or below a threshold; else the largest or the smallest. */
  test: 'above' | 'below' | 'largest' | 'smallest';
  threshold?: number;
  /** The scale the question writes after its threshold ("$9 million": 1e6), to read it in a table's unit. */
  scale?: number;
}

interface ComparisonIntent {
  asks: PeriodComparison['asks'];
  language: string;
  trigger: RegExp;
}

const PERIODS = String.raw`(?:years?|periods?|quarters?|months?|weeks?|days?)`;
export const COMPARISON_INTENTS: readonly ComparisonIntent[] = [
  { asks: 'count', language: 'en', trigger: new RegExp(String.raw`\bhow many (?:of the )?${PERIODS}\b`, 'i') },
  { asks: 'which', language: 'en', trigger: new RegExp(String.raw`\b(?:which|what)\s+${PERIODS}\b`, 'i') },
];

const SCALE = String.raw`(?:\s*(thousand|million|billion|mn|bn|m|k)\b)?`;
const ABOVE = new RegExp(String.raw`\b(?:exceed(?:ed|s|ing)?|above|over|more than|greater than|higher than|larger than|at least)\s*\$?\s*(\d[\d,]*(?:\.\d+)?)${SCALE}`, 'i');
const BELOW = new RegExp(String.raw`\b(?:less than|lower than|smaller than|fewer than|below|under|at most)\s*\$?\s*(\d[\d,]*(?:\.\d+)?)${SCALE}`, 'i');
const SIGN = /\b(positive|negative)\b/i;
const SCALES: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, mn: 1e6, m: 1e6, billion: 1e9, bn: 1e9 };
const LARGEST = /\b(?:higher|highest|larger|largest|greater|greatest|more|most|bigger|biggest|maximum)\b/i;
const SMALLEST = /\b(?:lower|lowest|smaller|smallest|less|least|fewer|fewest|minimum)\b/i;

/** The threshold a question compares with ("exceed $1,500", "lower than 2.00"), as a test; undefined when none. */
export function thresholdAsked(question: string): Pick<PeriodComparison, 'test' | 'threshold' | 'scale'> | undefined {
  const above = ABOVE.exec(question);
  const below = BELOW.exec(question);
  const number = (m: RegExpExecArray) => Number(m[1].replace(/,/g, ''));
  const scale = (m: RegExpExecArray) => (m[2] ? { scale: SCALES[m[2].toLowerCase()] } : {});
  if (above && (!below || above.index < below.index)) return { test: 'above', threshold: number(above), ...scale(above) };
  if (below) return { test: 'below', threshold: number(below), ...scale(below) };
  // "… was X positive?": above nil; "negative": below it.
  const sign = SIGN.exec(question)?.[1].toLowerCase();
  return sign ? { test: sign === 'positive' ? 'above' : 'below', threshold: 0 } : undefined;
}

/**
 * The comparison with its threshold in the scale a table prints ("$9 million" of a table in thousands: 9,000). A table
 * that prints no scale is read as the question writes it: its figures' scale is not known.
 */
export function inTableUnit(comparison: PeriodComparison, unit: TableUnit | undefined): PeriodComparison {
  if (comparison.threshold === undefined || !comparison.scale || !unit?.scale) return comparison;
  return { ...comparison, threshold: (comparison.threshold * comparison.scale) / unit.multiplier, scale: undefined };
}

/** The comparison a question asks across periods, or undefined when it asks none. */
export function comparisonAsked(question: string, intents: readonly ComparisonIntent[] = COMPARISON_INTENTS): PeriodComparison | undefined {
  const intent = intents.find((i) => i.trigger.test(question));
  if (!intent) return undefined;
  const threshold = thresholdAsked(question);
  if (threshold) return { asks: intent.asks, ...threshold };
  if (intent.asks === 'count') return undefined;
  if (LARGEST.test(question)) return { asks: 'which', test: 'largest' };
  if (SMALLEST.test(question)) return { asks: 'which', test: 'smallest' };
  return undefined;
}

export interface PeriodFigure {
  period: string;
  value: number;
}

/** The periods that meet the comparison (for largest or smallest, the one), in the order given; none when it cannot tell. */
export function periodsMeeting(comparison: PeriodComparison, figures: readonly PeriodFigure[]): PeriodFigure[] {
  const { test, threshold } = comparison;
  if (test === 'above') return figures.filter((f) => f.value > threshold!);
  if (test === 'below') return figures.filter((f) => f.value < threshold!);
  const best = test === 'largest' ? Math.max(...figures.map((f) => f.value)) : Math.min(...figures.map((f) => f.value));
  const top = figures.filter((f) => f.value === best);
  return top.length === 1 ? top : [];
}

/** "2019 and 2018", "2019, 2018 and 2017". */
function listed(periods: readonly string[]): string {
  return periods.length <= 2 ? periods.join(' and ') : `${periods.slice(0, -1).join(', ')} and ${periods.at(-1)}`;
}

/**
 * The direct line: the periods (or their count) and what they meet as a sentence of its own, then every period's
 * figure, so the reader sees why (apart: the answer is the first sentence, not the list of all the candidates).
 */
export function comparisonLine(comparison: PeriodComparison, label: string, figures: readonly PeriodFigure[], met: readonly PeriodFigure[], noun: readonly [string, string] = ['period', 'periods']): string {
  const all = figures.map((f) => `${f.period}: ${formatNumber(f.value)}`).join('; ');
  const test = comparison.test === 'above' ? ` above ${formatNumber(comparison.threshold!)}`
    : comparison.test === 'below' ? ` below ${formatNumber(comparison.threshold!)}`
      : comparison.test === 'largest' ? ', the largest' : ', the smallest';
  if (comparison.asks === 'count') {
    return `${met.length} ${met.length === 1 ? noun[0] : noun[1]}${met.length > 0 ? ` (${listed(met.map((f) => f.period))})` : ''}: ${label}${test}. (${all})`;
  }
  return `${listed(met.map((f) => f.period))}: ${label}${test}. (${all})`;
}
