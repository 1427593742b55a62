import type { AnswerSkill, ChunkHit, QueryPlanner } from '../../core/index.js';
import { asksWhatIBought, asksWhatIPaid, asksWhatWasPaid, MAX_RECEIPTS, receiptTotal, receiptTotalAnswer, TOTAL_QUERY } from './receipt-total.js';

/**
 * Till receipts as a plug-in: the embedded answerer answers "How much did I pay at Aldi?" with the receipt's total
 * line, "How much did I pay?" with each receipt's, "What did I buy at Lidl?" with its item lines and "What did I buy?"
 * with each receipt's; retrieval pins the total line's passage when the question names the receipt's document (the
 * shop's name is often at the top or the bottom of a receipt, in another passage than its total), and each receipt's
 * when the asker asks what they paid or bought and names no shop.
 */
export const RECEIPTS = 'receipts';

export const receiptsQueryPlanner: QueryPlanner = {
  name: RECEIPTS,
  lexicalQuery: (question) => question,
  pinnedSearches: (question) => [
    ...(asksWhatWasPaid(question) ? [{ text: TOTAL_QUERY, limit: 20, focusedOnly: true, holding: totalLines }] : []),
    // "How much did I pay?", "What did I buy?", no shop named: each receipt's total line (its items above it), among
    // other documents' lines of totals.
    ...(asksWhatIPaid(question) || asksWhatIBought(question) ? [{ text: TOTAL_QUERY, limit: 100, perDocument: MAX_RECEIPTS, holding: totalLines }] : []),
  ],
};

function totalLines(hits: ChunkHit[]): ChunkHit[] {
  return hits.filter((hit) => receiptTotal(hit.chunk.text) !== undefined);
}

export const receiptsAnswerSkill: AnswerSkill = {
  name: RECEIPTS,
  answer: receiptTotalAnswer,
  tableFigure: () => undefined,
};
