/** `doc-chat/adapters/receipts`: knowledge of till receipts (their total and item lines) as an answer plug-in. */
export { RECEIPTS, receiptsAnswerSkill, receiptsQueryPlanner } from './plugin.js';
export { asksWhatWasBought, asksWhatWasPaid, MORE_RECEIPTS_NOTE, receiptTotal, receiptTotalAnswer } from './receipt-total.js';
