import { intentsAsked, type Answer, type AnswerRequest, type ContextPassage } from '../../core/index.js';
import { RECEIPT_INTENTS } from './receipt-intents.js';
import { firstOfEachFile, linesOf, MAX_RECEIPTS, moreReceipts, namedReceipt, namesShop, quotedPassages, receiptTotal } from './receipt-total.js';

/**
 * What else a question asks of a receipt than its total or items: the day (its till's date line), how it was paid (the
 * payment lines: cash given, the card slip) or its VAT (the tax table). Receipts print each on lines of their own,
 * which the sentence ranking, fitted on prose, does not find ("When did I shop at Hornbach?" quoted the shop's address).
 */
export type ReceiptDetail = 'date' | 'payment' | 'vat';

/**
 * Which detail the question asks for, by the first detail intent of RECEIPT_INTENTS it holds: VAT before payment
 * before day. Asked only of a purchase or of the asker's own ("When did I shop at Hornbach?", "Did I pay by card?"):
 * "When did the act pass?" and "What was the effective tax rate?" ask other documents, and each detail asked costs a
 * search. VAT by its own names (VAT, MwSt) is always a receipt's.
 */
export function askedReceiptDetail(question: string): ReceiptDetail | undefined {
  const asked = intentsAsked(question, RECEIPT_INTENTS).find((row) => row.answer === 'detail-lines');
  return asked?.intent as ReceiptDetail | undefined;
}

/** A day as tills print it: 23.09.16, 02.03.2020, 2020-03-02, 03/02/2020. */
export const DATE = /\b(?:\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2}))\b/;

/** Words of paying on receipts, English and German: cash given, a card slip. */
const PAYMENT = /\b(bar|bargeld|cash|ec|karte|kartenzahlung|girocard|ec-?karte|kreditkarte|credit|debit|visa|mastercard|maestro|lastschrift|contactless|kontaktlos)\b/i;

/** A VAT table's heading or a line naming the tax. */
const VAT_WORDS = /\b(mwst|ust|vat|tax|steuer|netto|brutto|net|gross)\b/i;

/** A rate with its per cent sign: 19%, 7,00 %, 20.0%. */
const RATE = /\b\d{1,2}(?:[.,]\d{1,2})?\s?%/;

/** An amount with two decimals (as receipt-total.ts reads them). */
const CENTS = /\d[.,]\d{2}\b/g;

/** Most lines quoted of one receipt for a detail. */
const MAX_DETAIL_LINES = 3;

/** A lexical query for the lines of a detail: the words those lines print. */
export const DETAIL_QUERY: Record<ReceiptDetail, string> = {
  date: 'datum date uhr time',
  payment: 'bar bargeld cash karte kartenzahlung girocard kreditkarte credit debit visa mastercard lastschrift',
  vat: 'mwst ust vat tax netto brutto',
};

/** The lines of a receipt's text that tell the detail, at most MAX_DETAIL_LINES. */
export function detailLines(text: string, detail: ReceiptDetail): string[] {
  const lines = linesOf(text);
  if (detail === 'date') {
    const dated = lines.filter((line) => DATE.test(line));
    // "Datum 23.09.16 14:05 Uhr" on a card slip is the day of paying; a till line's date is as good.
    const line = dated.find((l) => /\b(datum|date)\b/i.test(l)) ?? dated[0];
    return line === undefined ? [] : [around(line, DATE)];
  }
  if (detail === 'payment') {
    // Lines with the amount paid first ("Bar 10,00", "EC LASTSCHRIFT 134,39 EUR"), then the card slip's others.
    const paying = lines.filter((line) => PAYMENT.test(line));
    return [...paying.filter((line) => line.match(CENTS)), ...paying.filter((line) => !line.match(CENTS))].slice(0, MAX_DETAIL_LINES).map((line) => around(line, PAYMENT));
  }
  // VAT: a table's heading (tax words, no amount) and the rows under it (two amounts or more: net, tax, gross); without
  // a heading, the rows that print a rate or a tax word. One amount beside a rate is an item ("RUM 40%VOL. 9,69").
  const isRow = (line: string) => (line.match(CENTS) ?? []).length >= 2;
  const heading = lines.findIndex((line, i) => VAT_WORDS.test(line) && !line.match(CENTS) && isRow(lines[i + 1] ?? ''));
  if (heading >= 0) {
    const rows: string[] = [];
    for (const line of lines.slice(heading + 1, heading + MAX_DETAIL_LINES)) {
      if (!isRow(line)) break;
      rows.push(line);
    }
    return [lines[heading], ...rows];
  }
  return lines.filter((line) => (RATE.test(line) || VAT_WORDS.test(line)) && isRow(line)).slice(0, MAX_DETAIL_LINES);
}

/** Words kept on each side of what a long line is quoted for: OCR runs a card slip's lines into one. */
const WORDS_AROUND = 4;

/** A line of more than a receipt line's words cut to the words around the first match of `pattern`. */
function around(line: string, pattern: RegExp): string {
  const words = line.split(/\s+/);
  if (words.length <= 2 * WORDS_AROUND + 3) return line;
  const at = Math.max(0, words.findIndex((_, i) => pattern.test(words.slice(i, i + 2).join(' '))));
  const from = Math.max(0, at - WORDS_AROUND);
  const to = Math.min(words.length, at + WORDS_AROUND + 2);
  return `${from > 0 ? '… ' : ''}${words.slice(from, to).join(' ')}${to < words.length ? ' …' : ''}`;
}

/**
 * The detail of each receipt the question names (by its shop), or of the only receipt among the passages: the lines
 * quoted from the first of the receipt's passages that holds any. Undefined when no receipt is asked of (several
 * receipts, none named: their days and card slips are passages of their own, more than an answer's passages hold) or
 * none holds such a line.
 */
export function receiptDetailAnswer(request: AnswerRequest, detail: ReceiptDetail): Answer | undefined {
  const receipts = firstOfEachFile(request.contexts.filter((passage) => isReceiptFile(request.contexts, passage)));
  const named = receipts.filter((passage) => namesShop(request.question, passage));
  // None named: the only receipt.
  const asked = named.length > 0 ? named : receipts.length === 1 ? receipts : [];
  const quoted = asked.slice(0, MAX_RECEIPTS).flatMap((first) => {
    for (const passage of request.contexts.filter((p) => p.filename === first.filename)) {
      const lines = detailLines(passage.text, detail);
      if (lines.length > 0) return [{ passage, lines }];
    }
    return [];
  });
  return quoted.length > 0 ? quotedPassages(quoted, moreReceipts(asked.length)) : undefined;
}

/**
 * Whether a passage's file is a receipt: its name says so, or one of its passages among the request's has a receipt's
 * total line (a total word and its one amount among others). A report's "Total" row of several figures is none.
 */
function isReceiptFile(contexts: readonly ContextPassage[], passage: ContextPassage): boolean {
  return namedReceipt(passage.filename) || contexts.some((p) => p.filename === passage.filename && receiptTotal(p.text) !== undefined);
}

