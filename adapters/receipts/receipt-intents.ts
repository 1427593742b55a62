/**
 * The receipts plug-in's question intents, as one table (core/rag/question-intents.ts): what a question asks of a
 * till receipt, in English and German, the searches it needs and the answer it gets. Rows are tried in order where
 * one is wanted: VAT before the way of paying before the day ("When did I pay the VAT?" asks the VAT), the highest
 * total before the lowest.
 */
import type { QuestionIntent } from '../../core/index.js';

export type ReceiptIntent = 'vat' | 'payment' | 'date' | 'paid' | 'bought' | 'highest' | 'lowest';
/**
 * - detail-lines: the lines of the detail (a date line, payment lines, the VAT table) in the receipts the question names;
 * - total-line: the total line of the receipt the question names (each receipt's when the asker asks of their own);
 * - whole-receipt: every line of the receipt the question names (its opening chunks and its total line);
 * - each-total-line: each receipt's total line.
 */
export type ReceiptPlan = 'detail-lines' | 'total-line' | 'whole-receipt' | 'each-total-line';
export type ReceiptAnswer = 'detail-lines' | 'total' | 'items' | 'extreme-total';

type Row = QuestionIntent<ReceiptIntent, ReceiptPlan, ReceiptAnswer>;

const KINDS = ['receipt'];
/** A detail other than the VAT by its own names is asked of a purchase or of the asker's own: "When did the act pass?" is not. */
const OF_A_PURCHASE = /\b(receipts?|bill|shop|shopped|shopping|purchases?|store|till|kassenbon|beleg)\b|\b(i|we|ich|wir)\b/;
/** Comparing totals is asked of receipts or spending: "Which is the highest mountain?" is not. */
const OF_SPENDING = /\b(receipts?|totals?|spen[dt]|paid|pay|bill|purchases?|shopping|expensive|cheap(est)?)\b/;

const detail = (intent: ReceiptIntent, language: string, trigger: RegExp, requires?: RegExp): Row =>
  ({ intent, language, kinds: KINDS, trigger, requires, plan: 'detail-lines', answer: 'detail-lines' });
const paid = (language: string, trigger: RegExp, unless?: RegExp): Row =>
  ({ intent: 'paid', language, kinds: KINDS, trigger, unless, plan: 'total-line', answer: 'total' });
const bought = (language: string, trigger: RegExp): Row =>
  ({ intent: 'bought', language, kinds: KINDS, trigger, plan: 'whole-receipt', answer: 'items' });
const extreme = (intent: 'highest' | 'lowest', trigger: RegExp): Row =>
  ({ intent, language: 'en', kinds: KINDS, trigger, requires: OF_SPENDING, plan: 'each-total-line', answer: 'extreme-total' });

export const RECEIPT_INTENTS: readonly Row[] = [
  detail('vat', 'en', /\b(vat|sales tax)\b/),
  detail('vat', 'de', /\b(mwst|ust|mehrwertsteuer|umsatzsteuer)\b/),
  detail('vat', 'en', /\b(tax|taxes)\b/, OF_A_PURCHASE),
  detail('payment', 'en', /\bhow did (i|we) pay\b|\bpayment method\b|\b(pay|paid|payment)\b.*\b(card|cash|credit|debit|girocard|ec)\b|\b(card|cash)\b.*\b(pay|paid)\b/, OF_A_PURCHASE),
  detail('payment', 'de', /\bwie\b.*\bbezahlt\b|\b(bar|karte)\b.*\bbezahlt\b/, OF_A_PURCHASE),
  detail('date', 'en', /^\s*when\b|\b(what|which) (date|day|time)\b/, OF_A_PURCHASE),
  detail('date', 'de', /\bwann\b|\ban welchem tag\b|\bdatum\b/, OF_A_PURCHASE),
  // "How much did I pay at Aldi?", "How much was the Ikea receipt?", "What is the total on the receipt?"; not a part
  // of the total ("How much VAT is on the receipt?").
  paid('en', /\bhow much\b.*\b(pay|paid|spend|spent|cost|costs|owe|charged)\b/),
  paid('en', /\bhow much\b.*\b(receipts?|bill|purchase|shopping|groceries)\b/, /\b(tax|vat|mwst|change|discount|deposit|pfand)\b/),
  paid('en', /\b(total|amount|sum|bill)\b.*\b(receipt|bill|purchase|shopping|till|paid|pay)\b/),
  paid('en', /\b(receipt|bill|purchase)\b.*\b(total|amount|sum)\b/),
  paid('en', /\bwhat did (i|we) (pay|spend)\b/),
  paid('en', /\bwhat (was|were) (paid|spent)\b|\bwhat did (it|they) cost\b/),
  paid('de', /\b(wie ?viel|was)\b.*\b(bezahlt|gezahlt|ausgegeben|gekostet|kostete)\b/),
  paid('de', /\b(summe|gesamtbetrag|endbetrag)\b/),
  // "What did I buy at Lidl?", "Which items did we get?", "What is on the Ikea receipt?", "Was habe ich gekauft?".
  bought('en', /\bwhat did (i|we) (buy|purchase|get|order)\b/),
  bought('en', /\bwhat(?:'s|’s| is| was)? (?:in|on) (?:the|this|that|my)\b.*\breceipts?\b/),
  bought('en', /\b(which|what) (items|products|articles|things)\b.*\b(buy|bought|purchase|purchased|get|got)\b/),
  bought('de', /\bwas (habe ich|haben wir)\b.*\b(gekauft|eingekauft|bestellt)\b/),
  // "Which receipt has the highest total?", "Where did I spend the least?".
  extreme('highest', /\b(highest|largest|biggest|most expensive|priciest|greatest|maximum|the most)\b/),
  extreme('lowest', /\b(lowest|smallest|cheapest|least expensive|minimum|the least)\b/),
];
