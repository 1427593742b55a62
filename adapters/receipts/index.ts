/** `doc-chat/adapters/receipts`: knowledge of till receipts (their total line) as an answer plug-in. */
export { RECEIPTS, receiptsAnswerSkill, receiptsQueryPlanner } from './plugin.js';
export { asksWhatWasPaid, receiptTotal, receiptTotalAnswer } from './receipt-total.js';
