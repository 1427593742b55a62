import { intentsAsked, type Answer, type AnswerRequest } from '../../core/index.js';
import { RECEIPT_INTENTS } from './receipt-intents.js';
import { firstOfEachFile, quotedPassages, receiptTotal } from './receipt-total.js';

/**
 * "Which receipt has the highest total?", "Where did I spend the least?": the receipts' totals compared. The sentence
 * ranking quotes whichever receipt matches the words best; the answer is the total line of the receipt whose amount
 * is the highest (or lowest) of those read.
 */
export type TotalOrder = 'highest' | 'lowest';

export function asksExtremeTotal(question: string): TotalOrder | undefined {
  const asked = intentsAsked(question, RECEIPT_INTENTS).find((row) => row.answer === 'extreme-total');
  return asked?.intent as TotalOrder | undefined;
}

/** A receipt's amount as a number: 1.234,56 · 1,234.56 · 24,23 · 12.50 (the last separator before two digits is the decimal one). */
export function amountValue(amount: string): number {
  const digits = amount.replace(/[^\d.,]/g, '');
  return Number(`${digits.slice(0, -3).replace(/[.,]/g, '')}.${digits.slice(-2)}`);
}

/** The total line of the receipt with the highest (lowest) total among the passages, and how many were compared. */
export function extremeTotalAnswer(request: AnswerRequest, order: TotalOrder): Answer | undefined {
  const totals = firstOfEachFile(request.contexts.filter((passage) => receiptTotal(passage.text)))
    .map((passage) => ({ passage, ...receiptTotal(passage.text)! }));
  if (totals.length < 2) return undefined;
  const best = totals.reduce((a, b) => ((order === 'highest' ? amountValue(b.amount) > amountValue(a.amount) : amountValue(b.amount) < amountValue(a.amount)) ? b : a));
  const note = `(The ${order} of the ${totals.length} receipts' totals I could read.)`;
  return quotedPassages([{ passage: best.passage, lines: [best.line], amount: best.amount }], note);
}
