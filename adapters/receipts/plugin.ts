import { intentKinds, intentsAsked, type Answer, type AnswerRequest, type AnswerSkill, type ChunkHit, type QueryPlanner } from '../../core/index.js';
import { asksExtremeTotal, extremeTotalAnswer } from './receipt-compare.js';
import { askedReceiptDetail, DETAIL_QUERY, detailLines, receiptDetailAnswer, type ReceiptDetail } from './receipt-details.js';
import { RECEIPT_INTENTS, type ReceiptPlan } from './receipt-intents.js';
import { receiptOverview } from './receipt-overview.js';
import { asksWhatIBought, asksWhatIPaid, MAX_RECEIPTS, receiptTotal, receiptTotalAnswer, TOTAL_QUERY } from './receipt-total.js';

/**
 * Till receipts as a plug-in: the embedded answerer answers "How much did I pay at Aldi?" with the receipt's total
 * line, "How much did I pay?" with each receipt's, "What did I buy at Lidl?" with its item lines and "What did I buy?"
 * with each receipt's, "When did I shop at Hornbach?" (how paid, the VAT) with the receipt's lines of it; retrieval
 * pins the total line's passage (or the detail's) when the question names the receipt's document (the shop's name is
 * often at the top or the bottom of a receipt, in another passage than its total), and each receipt's when the asker
 * asks what they paid or bought and names no shop. In an overview, a receipt is told by its day, total and first items.
 */
export const RECEIPTS = 'receipts';

/** A photographed receipt is a few chunks (Aldi's 19 items: 4): what one lists is read whole. */
const RECEIPT_CHUNKS = 4;

/** The kinds of document it serves (adapters/document-kinds): those its intents are asked of. */
export const RECEIPT_KINDS: readonly string[] = intentKinds(RECEIPT_INTENTS);

/** The retrieval plans of the intents the question holds (adapters/receipts/receipt-intents.ts). */
function plansAsked(question: string): Set<ReceiptPlan> {
  return new Set(intentsAsked(question, RECEIPT_INTENTS).map((row) => row.plan));
}

export const receiptsQueryPlanner: QueryPlanner = {
  name: RECEIPTS,
  kinds: RECEIPT_KINDS,
  lexicalQuery: (question) => question,
  // "What did I buy at Aldi?": every item line of the receipt, not only those of passages holding the question's words.
  wholeDocuments: (question) => (plansAsked(question).has('whole-receipt') && !asksWhatIBought(question) ? RECEIPT_CHUNKS : 0),
  pinnedSearches: (question) => {
    const detail = askedReceiptDetail(question);
    if (!detail) return totalSearches(question);
    return [{ text: DETAIL_QUERY[detail], limit: 20, focusedOnly: true, holding: (hits: ChunkHit[]) => detailHits(hits, detail) }];
  },
};

function totalSearches(question: string) {
  const plans = plansAsked(question);
  return [
    // "What did I buy at Aldi?" too: a receipt's last items are printed just above its total.
    ...(plans.has('total-line') || plans.has('whole-receipt') ? [{ text: TOTAL_QUERY, limit: 20, focusedOnly: true, holding: totalLines }] : []),
    // "How much did I pay?", "What did I buy?", no shop named: each receipt's total line (its items above it), among
    // other documents' lines of totals.
    ...(asksWhatIPaid(question) || asksWhatIBought(question) || plans.has('each-total-line')
      ? [{ text: TOTAL_QUERY, limit: 100, perDocument: MAX_RECEIPTS, holding: totalLines }]
      : []),
  ];
}

/**
 * Hits that print the detail asked ("Datum 23.09.16", "Bar 10,00", a VAT row), within the documents the question names
 * (focusedOnly): a card slip's passage holds the day and one amount, too few to read as a receipt on its own.
 */
function detailHits(hits: ChunkHit[], detail: ReceiptDetail): ChunkHit[] {
  return hits.filter((hit) => detailLines(hit.chunk.text, detail).length > 0);
}

/** The receipt's detail asked for (its day, how it was paid, its VAT), the highest or lowest total, else its total or items. */
function receiptAnswer(request: AnswerRequest): Answer | undefined {
  const detail = askedReceiptDetail(request.question);
  if (detail) return receiptDetailAnswer(request, detail);
  const order = asksExtremeTotal(request.question);
  return (order && extremeTotalAnswer(request, order)) || receiptTotalAnswer(request);
}

function totalLines(hits: ChunkHit[]): ChunkHit[] {
  return hits.filter((hit) => receiptTotal(hit.chunk.text) !== undefined);
}

export const receiptsAnswerSkill: AnswerSkill = {
  name: RECEIPTS,
  kinds: RECEIPT_KINDS,
  answer: receiptAnswer,
  tableFigure: () => undefined,
  documentOverview: receiptOverview,
};
