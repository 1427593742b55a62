/**
 * Questions that compare a table's items rather than its periods: "In which segment were the net balances the
 * largest?", "Which component is the greatest in the total fair value?", "How many quarters had lows below 2.00?". The
 * items are a row's cells under columns named by words (segments), or a column's cells down its rows (components).
 * The trigger is data, one language, like the period comparisons (period-comparison.ts), whose answer line it shares.
 */
import { thresholdAsked, type PeriodComparison } from './period-comparison.js';

interface ItemComparisonIntent {
  language: string;
  /** Which or what, then a superlative; never a period's word (those are period-comparison.ts's). */
  trigger: RegExp;
  largest: RegExp;
  smallest: RegExp;
}

export const ITEM_COMPARISON_INTENTS: readonly ItemComparisonIntent[] = [{
  language: 'en',
  trigger: /^\s*(?:for\s+[^,]+,\s*)?(?:in\s+)?(?:which|what)\b(?!\s+(?:years?|periods?|quarters?|months?|weeks?|days?)\b)/i,
  // Not "maximum" nor "minimum": they name a figure ("the maximum exposure to credit risk", "minimum lease payments").
  largest: /\b(?:highest|largest|greatest|biggest|most)\b/i,
  smallest: /\b(?:lowest|smallest|least|fewest)\b/i,
}];

/** How many of a table's items meet a threshold ("How many regions had sales above 500?"). */
const COUNT = /^\s*(?:(?:in|for)\s+[^,]+,\s*)?how many\b/i;

/** The item comparison a question asks: the largest or the smallest, or how many pass a threshold; else undefined. */
export function itemComparisonAsked(question: string, intents: readonly ItemComparisonIntent[] = ITEM_COMPARISON_INTENTS): PeriodComparison | undefined {
  const threshold = COUNT.test(question) ? thresholdAsked(question) : undefined;
  if (threshold) return { asks: 'count', ...threshold };
  const intent = intents.find((i) => i.trigger.test(question));
  if (!intent) return undefined;
  if (intent.largest.test(question)) return { asks: 'which', test: 'largest' };
  if (intent.smallest.test(question)) return { asks: 'which', test: 'smallest' };
  return undefined;
}

/** A total's row or column ("Total", "Group total", "Total £m"): no item of those it totals. */
export function isTotal(label: string): boolean {
  return /\btotals?\b/i.test(label);
}
