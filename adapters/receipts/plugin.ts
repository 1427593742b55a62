import type { AnswerSkill, ChunkHit, QueryPlanner } from '../../core/index.js';
import { asksWhatWasPaid, receiptTotal, receiptTotalAnswer, TOTAL_QUERY } from './receipt-total.js';

/**
 * Till receipts as a plug-in: the embedded answerer answers "How much did I pay at Aldi?" with the receipt's total
 * line; retrieval pins that line's passage when the question names the receipt's document (the shop's name is often
 * at the top or the bottom of a receipt, in another passage than its total).
 */
export const RECEIPTS = 'receipts';

export const receiptsQueryPlanner: QueryPlanner = {
  name: RECEIPTS,
  lexicalQuery: (question) => question,
  pinnedSearches: (question) => asksWhatWasPaid(question)
    ? [{ text: TOTAL_QUERY, limit: 20, focusedOnly: true, holding: (hits: ChunkHit[]) => hits.filter((hit) => receiptTotal(hit.chunk.text) !== undefined) }]
    : [],
};

export const receiptsAnswerSkill: AnswerSkill = {
  name: RECEIPTS,
  answer: receiptTotalAnswer,
  tableFigure: () => undefined,
};
