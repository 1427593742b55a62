import { contentTokens, wordTokens, type Answer, type AnswerRequest, type ContextPassage } from '../../core/index.js';

/**
 * What a till receipt says was paid. Receipts are photographed and read by OCR; their total is one line among item
 * prices, change given and a VAT table, worded by the shop ("ZU ZAHLEN EURO 24,23", "Summe 134,39", "TOTAL 12.50").
 * The sentence ranking (fitted on prose) quotes item lines for "How much did I pay at Aldi?"; this finds the total line.
 */

/** An amount with two decimals, as receipts print them: 24,23 · 1.99 · €1,95 (a thousands part allowed: 1.234,56). */
const AMOUNT = /(?<![\d.,])(?:\d{1,3}(?:[.,]\d{3})+|\d{1,5})[.,]\d{2}(?![\d.,])/g;

/** Fewer amounts than this: not a receipt (a sentence that mentions a total). */
const MIN_AMOUNTS = 3;

/**
 * Words receipts print before the amount paid, strongest first: the amount to pay, then the sum of the items. English
 * and German (the OCR's English model reads German receipts' letters well enough for these words).
 */
const TOTAL_WORDS: readonly RegExp[] = [
  /\b(zu zahlen|amount due|balance due|grand total|total due|gesamtbetrag|endbetrag)\b/i,
  /\b(summe|total|gesamt|betrag)\b/i,
];

/** A lexical query for a receipt's total line: the total words, as one query. */
export const TOTAL_QUERY = 'zu zahlen summe total gesamt gesamtbetrag endbetrag betrag amount due';

/** A question about what was paid: "How much did I pay at Aldi?", "What is the total on the receipt?", "Was habe ich bezahlt?". */
export function asksWhatWasPaid(question: string): boolean {
  const q = question.toLowerCase();
  return /\bhow much\b.*\b(pay|paid|spend|spent|cost|costs|owe|charged)\b/.test(q)
    || /\b(total|amount|sum|bill)\b.*\b(receipt|bill|purchase|shopping|till|paid|pay)\b/.test(q)
    || /\b(receipt|bill|purchase)\b.*\b(total|amount|sum)\b/.test(q)
    || /\bwhat did (i|we) (pay|spend)\b/.test(q)
    || /\b(wie ?viel|was)\b.*\b(bezahlt|gezahlt|ausgegeben|gekostet|kostete)\b/.test(q)
    || /\b(summe|gesamtbetrag|endbetrag)\b/.test(q);
}

interface TotalLine {
  line: string;
  amount: string;
}

/**
 * The total line of a passage that reads as a receipt: three amounts at least (a chunk of a receipt holds a few of its
 * lines, some run together with the next by chunking), and a line holding a total word and exactly one amount (a VAT
 * table's "Summe 0,47 6,69" holds several). The strongest word wins; among lines of one word, the first (the amount
 * to pay comes before the card slip repeats it).
 */
export function receiptTotal(text: string): TotalLine | undefined {
  if ((text.match(AMOUNT) ?? []).length < MIN_AMOUNTS) return undefined;
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  for (const words of TOTAL_WORDS) {
    for (const line of lines) {
      const amounts = [...line.matchAll(AMOUNT)];
      const word = words.exec(line);
      // The word labels the amount after it ("far £2,00 Rückgeld … Total" is change given, then a table's heading).
      if (amounts.length === 1 && word && word.index < amounts[0].index) return { line, amount: amounts[0][0] };
    }
  }
  return undefined;
}

/**
 * The answer to a question about what was paid: the total of the first receipt among the passages (retrieval order,
 * so the shop the question names comes first), quoted with its source. Undefined when no passage is a receipt with a
 * total line, and the answerer answers as usual.
 */
export function receiptTotalAnswer(request: AnswerRequest): Answer | undefined {
  if (!asksWhatWasPaid(request.question)) return undefined;
  for (const passage of request.contexts) {
    const total = receiptTotal(passage.text);
    if (!total) continue;
    // "How much did the POANG cushion cost?" asks for an item's line, not the receipt's total.
    const items = namedItemLines(request.question, request.contexts.filter((p) => p.filename === passage.filename));
    if (items) return quotedLines(items.passage, items.lines, items.amounts.length === 1 ? items.amounts[0] : undefined);
    return quotedLines(passage, [total.line], total.amount);
  }
  return undefined;
}

/** Most item lines an answer quotes. */
const MAX_ITEM_LINES = 3;

/**
 * The item lines of a receipt's passages that hold a word of the question (3 letters or more) other than the shop's
 * (its file name's, or its passage's first line's: "How much did I pay at Ikea?" names the shop, not an item): lines
 * with an amount and no total word. From the first passage that has any; undefined when none does.
 */
function namedItemLines(question: string, passages: ContextPassage[]): { passage: ContextPassage; lines: string[]; amounts: string[] } | undefined {
  const asked = new Set(contentTokens(question).filter((w) => w.length >= 3));
  for (const passage of passages) {
    const lines = passage.text.split('\n').map((line) => line.trim()).filter(Boolean);
    const shop = new Set(wordTokens(`${lines[0] ?? ''} ${passage.filename}`));
    const named = lines.slice(1).filter((line) =>
      line.match(AMOUNT) && !TOTAL_WORDS.some((words) => words.test(line)) && wordTokens(line).some((w) => asked.has(w) && !shop.has(w)));
    if (named.length > 0) {
      const kept = named.slice(0, MAX_ITEM_LINES);
      return { passage, lines: kept, amounts: kept.flatMap((line) => line.match(AMOUNT) ?? []) };
    }
  }
  return undefined;
}

/** The lines quoted (joined by " … ") and cited, led by `amount` when there is one to give. */
function quotedLines(passage: ContextPassage, lines: string[], amount?: string): Answer {
  const quote = lines.map((line) => line.replace(/\s+/g, ' ')).join(' … ');
  return {
    text: `${amount ? `${amount} — ` : ''}“${quote}” [1]\n\nSources: [1] ${passage.filename}, page ${passage.page}`,
    usedRefs: [passage.ref],
    markers: { [passage.ref]: 1 },
    quotes: { [passage.ref]: quote },
  };
}
