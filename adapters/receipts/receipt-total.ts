import { contentTokens, intentsAsked, passagePlace, wordTokens, type Answer, type AnswerRequest, type ContextPassage } from '../../core/index.js';
import { RECEIPT_INTENTS } from './receipt-intents.js';

/**
 * What a till receipt says was paid. Receipts are photographed and read by OCR; their total is one line among item
 * prices, change given and a VAT table, worded by the shop ("ZU ZAHLEN EURO 24,23", "Summe 134,39", "TOTAL 12.50").
 * The sentence ranking (fitted on prose) quotes item lines for "How much did I pay at Aldi?"; this finds the total line.
 */

/** An amount with two decimals, as receipts print them: 24,23 · 1.99 · €1,95 (a thousands part allowed: 1.234,56). */
export const AMOUNT = /(?<![\d.,])(?:\d{1,3}(?:[.,]\d{3})+|\d{1,5})[.,]\d{2}(?![\d.,])/g;

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

/**
 * A question about what was paid: "How much did I pay at Aldi?", "How much was the Ikea receipt?", "What is the total
 * on the receipt?", "What was paid at Ikea?", "Was habe ich bezahlt?". Not a part of the total ("How much VAT is on
 * the receipt?").
 */
export function asksWhatWasPaid(question: string): boolean {
  return intentsAsked(question, RECEIPT_INTENTS).some((row) => row.intent === 'paid');
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
  const lines = linesOf(text);
  for (const words of TOTAL_WORDS) {
    for (const line of lines) {
      const amount = labelledAmount(line, words);
      if (amount) return { line, amount };
    }
  }
  return undefined;
}

/**
 * Whether a passage reads as a receipt even where OCR garbled its total ("Total £1195"): amounts enough, and a line
 * with a total word.
 */
export function looksLikeReceipt(text: string): boolean {
  return (text.match(AMOUNT) ?? []).length >= MIN_AMOUNTS && totalWordLine(text) !== undefined;
}

/**
 * The first short line (a receipt's, not prose) holding a total word and a digit, the strongest word first, whatever
 * its amount reads as.
 */
function totalWordLine(text: string): string | undefined {
  const lines = linesOf(text).filter((line) => wordTokens(line).length <= MAX_ITEM_LINE_WORDS);
  for (const words of TOTAL_WORDS) {
    const line = lines.find((l) => words.test(l) && /\d/.test(l));
    if (line) return line;
  }
  return undefined;
}

/**
 * The line's one amount when one of `words` labels it (stands before it: "far £2,00 Rückgeld … Total" is change given,
 * then a table's heading); undefined for a line of several amounts (a VAT table's "Summe 0,47 6,69").
 */
function labelledAmount(line: string, words: RegExp): string | undefined {
  const amounts = [...line.matchAll(AMOUNT)];
  const word = words.exec(line);
  return amounts.length === 1 && word && word.index < amounts[0].index ? amounts[0][0] : undefined;
}

/** "How much did I pay?", "What did we spend?": what the asker paid, of every receipt when none is named. */
export function asksWhatIPaid(question: string): boolean {
  return asksWhatWasPaid(question) && /\b(i|we)\b/i.test(question);
}

/**
 * A question about what was bought: "What did I buy at Lidl?", "Which items did we get?", "What is on the Ikea
 * receipt?", "Was habe ich gekauft?".
 */
export function asksWhatWasBought(question: string): boolean {
  return intentsAsked(question, RECEIPT_INTENTS).some((row) => row.intent === 'bought');
}

/** The words of asking what was bought; any other names what (a shop, a day) the question is about. */
const BUYING_WORDS = new Set([
  'buy', 'bought', 'purchase', 'purchased', 'get', 'got', 'order', 'ordered', 'items', 'products', 'articles', 'things',
  'habe', 'haben', 'ich', 'wir', 'gekauft', 'eingekauft', 'bestellt',
]);

/** "What did I buy?", "Was habe ich gekauft?": what was bought, and nothing named, so on every receipt. */
export function asksWhatIBought(question: string): boolean {
  return asksWhatWasBought(question) && contentTokens(question).every((word) => BUYING_WORDS.has(word));
}

/** Most receipts an answer lists (their totals, or what was bought on each). */
export const MAX_RECEIPTS = 5;

/**
 * The answer to a question about what was paid or bought, from the receipts among the passages; undefined when none
 * is, and the answerer answers as usual.
 * - What was paid: the total line of the receipt the question names (by its shop: a word of its file name or first
 *   line), else of the first receipt in retrieval order; an item the question names gets its own line instead. Asked
 *   "How much did I pay?" of several receipts (none named, or several), each one's total.
 * - What was bought: the item lines of each receipt the question names (of the only receipt when one is found); of
 *   each receipt when the question names nothing ("What did I buy?").
 */
export function receiptTotalAnswer(request: AnswerRequest): Answer | undefined {
  if (asksWhatWasBought(request.question)) return boughtAnswer(request);
  if (!asksWhatWasPaid(request.question)) return undefined;
  const receipts = firstOfEachFile(request.contexts.filter((passage) => receiptTotal(passage.text)));
  const named = receipts.filter((passage) => namesShop(request.question, passage));
  // A receipt named whose total OCR garbled ("Total £1195"): its total line as read, not the other receipts' totals.
  const garbled = named.length === 0
    ? firstOfEachFile(request.contexts.filter((p) => namesShop(request.question, p) && totalWordLine(p.text) && (looksLikeReceipt(p.text) || namedReceipt(p.filename))))
    : [];
  if (garbled.length > 0) return quotedPassages(garbled.slice(0, MAX_RECEIPTS).map((passage) => ({ passage, lines: [totalWordLine(passage.text)!] })));
  const passage = named[0] ?? receipts[0];
  if (!passage) return undefined;
  const asked = named.length > 0 ? named : receipts;
  if (asked.length > 1 && asksWhatIPaid(request.question)) {
    const totals = asked.slice(0, MAX_RECEIPTS).map((p) => {
      const { line, amount } = receiptTotal(p.text)!;
      return { passage: p, lines: [line], amount };
    });
    return quotedPassages(totals, moreReceipts(asked.length));
  }
  // "How much did the POANG cushion cost?" asks for an item's line, not the receipt's total.
  const items = namedItemLines(request.question, request.contexts.filter((p) => p.filename === passage.filename));
  if (items) return quotedPassages([{ passage: items.passage, lines: items.lines, amount: items.amounts.length === 1 ? items.amounts[0] : undefined }]);
  const total = receiptTotal(passage.text)!;
  return quotedPassages([{ passage, lines: [total.line], amount: total.amount }]);
}

/** Most item lines quoted of one receipt. */
const MAX_BOUGHT_LINES = 8;

/** Longer lines are not one item's (OCR ran a receipt's items together, or the passage is prose). */
const MAX_ITEM_LINE_WORDS = 10;

/** What was bought: each named receipt's item lines, then its total line when the passage has one. */
function boughtAnswer(request: AnswerRequest): Answer | undefined {
  const receipts = firstOfEachFile(request.contexts.filter((p) => (p.text.match(AMOUNT) ?? []).length >= MIN_AMOUNTS));
  const named = receipts.filter((passage) => namesShop(request.question, passage));
  const every = asksWhatIBought(request.question) ? firstOfEachFile(request.contexts.filter((passage) => receiptTotal(passage.text))) : [];
  const asked = named.length > 0 ? named : receipts.length === 1 ? receipts : every;
  const listed = asked.slice(0, MAX_RECEIPTS).flatMap(({ filename }) => {
    const bought = boughtOfFile(request.contexts.filter((p) => p.filename === filename));
    return bought ? [bought] : [];
  });
  return listed.length > 0 ? quotedPassages(listed, moreReceipts(asked.length)) : undefined;
}

/**
 * A receipt's item lines from all its passages found (a long receipt's items span several, and the first found may be
 * its VAT table or footer), then its total line: quoted as one, from the passage with the total line (else the one
 * with the most items), the others cited with it.
 */
export function boughtOfFile(passages: ContextPassage[]): { passage: ContextPassage; lines: string[]; also: ContextPassage[] } | undefined {
  const withTotal = passages.find((p) => receiptTotal(p.text));
  const ordered = [...passages.filter((p) => p !== withTotal), ...(withTotal ? [withTotal] : [])];
  const lines: string[] = [];
  const used: ContextPassage[] = [];
  for (const passage of ordered) {
    const own = boughtLines(passage.text).filter((line) => (passage === withTotal || isItem(line)) && !lines.includes(line));
    if (own.length === 0) continue;
    lines.push(...own);
    used.push(passage);
  }
  if (lines.length === 0) return undefined;
  const total = withTotal && used.includes(withTotal) ? lines.pop() : undefined;
  const main = total ? withTotal! : used.reduce((a, b) => (boughtLines(b.text).length > boughtLines(a.text).length ? b : a));
  return { passage: main, lines: [...lines.slice(0, MAX_BOUGHT_LINES), ...(total ? [total] : [])], also: used.filter((p) => p !== main) };
}

/**
 * An item's line: a word other than a currency ("Bulgur 0,99 x 2 1,98 A"), one or two amounts, no total word before
 * them. A VAT table's row ("C 7,004 17438 1,21 18,54", "D 19,00% 4,78 5,69") has a class letter for a name, or more
 * amounts; its sum ("Summe 0,47 6,69") a total word.
 */
function isItem(line: string): boolean {
  const amounts = [...line.matchAll(AMOUNT)];
  const totalWord = TOTAL_WORDS.some((words) => (words.exec(line)?.index ?? Infinity) < amounts[0]?.index);
  // A currency alone names nothing bought: "EUR 152,00" is a card slip's amount; "far £2,00 Riickgeld" the change.
  return amounts.length >= 1 && amounts.length <= 2 && /\p{L}{3}/u.test(line.replace(CURRENCY, '')) && !totalWord && !CHANGE_GIVEN.test(line);
}

const CURRENCY = /\b(?:EUR|USD|GBP|CHF)\b/gi;

/** Money handed over and given back, as receipts print it (OCR reads "Rückgeld" as "Riickgeld" too). */
const CHANGE_GIVEN = /\b(?:r\p{L}{1,2}ckgeld|wechselgeld|gegeben|change|tendered)\b/iu;

/** A receipt passage's item lines (an amount, no total word, not too long) up to its total line, and that line. */
function boughtLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of linesOf(text)) {
    if (TOTAL_WORDS.some((words) => labelledAmount(line, words))) return [...lines.slice(0, MAX_BOUGHT_LINES), line];
    if (line.match(AMOUNT) && wordTokens(line).length <= MAX_ITEM_LINE_WORDS) lines.push(line);
  }
  return lines.slice(0, MAX_BOUGHT_LINES);
}

/** A line as one quote shows it: OCR's runs of spaces and tabs as one space. */
export function oneLine(line: string): string {
  return line.replace(/\s+/g, ' ');
}

/** A passage's lines, trimmed, blank ones left out. */
export function linesOf(text: string): string[] {
  return text.split('\n').map((line) => line.trim()).filter(Boolean);
}

/** The first passage of each file, in the passages' order. */
export function firstOfEachFile(passages: ContextPassage[]): ContextPassage[] {
  const first = new Map<string, ContextPassage>();
  for (const passage of passages) if (!first.has(passage.filename)) first.set(passage.filename, passage);
  return [...first.values()];
}

/** The shop's words: the receipt's file name's and its passage's first line's (the heading a receipt opens with). */
function shopWords(passage: ContextPassage): Set<string> {
  return new Set(wordTokens(`${passage.text.split('\n')[0] ?? ''} ${passage.filename}`));
}

/** Whether the question holds a word (3 letters or more) of the receipt's shop (receipt, jpg and the like aside). */
export function namesShop(question: string, passage: ContextPassage): boolean {
  const shop = shopWords(passage);
  return contentTokens(question).some((w) => w.length >= 3 && shop.has(w) && !GENERIC_FILE_WORDS.has(w));
}

/** File names that say receipt ("receipt_ikea.jpg", "Kassenbon Lidl.jpg"): a card slip's passage alone is one then. */
const RECEIPT_FILE_WORDS = /(^|[^a-z])(receipts?|kassenbon|bon|beleg|quittung)([^a-z]|$)/i;

/** Whether a file's name says it is a receipt. */
export function namedReceipt(filename: string): boolean {
  return RECEIPT_FILE_WORDS.test(filename);
}

/** Words of receipts' file names that name no shop. */
const GENERIC_FILE_WORDS = new Set(['receipt', 'receipts', 'jpg', 'jpeg', 'png', 'pdf', 'scan', 'photo', 'image', 'bon', 'beleg', 'quittung', 'kassenbon']);

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
    const lines = linesOf(passage.text);
    const shop = shopWords(passage);
    const named = lines.slice(1).filter((line) =>
      line.match(AMOUNT) && !TOTAL_WORDS.some((words) => words.test(line)) && wordTokens(line).some((w) => asked.has(w) && !shop.has(w)));
    if (named.length > 0) {
      const kept = named.slice(0, MAX_ITEM_LINES);
      return { passage, lines: kept, amounts: kept.flatMap((line) => line.match(AMOUNT) ?? []) };
    }
  }
  return undefined;
}

/** Said under a list of receipts that may have left some out (it holds MAX_RECEIPTS). */
export const MORE_RECEIPTS_NOTE = `(At most ${MAX_RECEIPTS} receipts are listed: name a shop to ask about another.)`;

/** MORE_RECEIPTS_NOTE when a list of `asked` receipts holds as many as it lists at most. */
export function moreReceipts(asked: number): string | undefined {
  return asked >= MAX_RECEIPTS ? MORE_RECEIPTS_NOTE : undefined;
}

/**
 * Each passage's lines quoted (joined by " … ") and cited in turn, [1], [2] …, one per line, led by its amount if
 * given; `note` (what the list may leave out) under them.
 */
export function quotedPassages(quoted: { passage: ContextPassage; lines: string[]; amount?: string; also?: ContextPassage[] }[], note?: string): Answer {
  const quotes = quoted.map(({ lines }) => lines.map(oneLine).join(' … '));
  const cited = quotes.map((quote, i) => `${quoted[i].amount ? `${quoted[i].amount} — ` : ''}“${quote}” [${i + 1}]`);
  const sources = quoted.map(({ passage }, i) => `[${i + 1}] ${passagePlace(passage)}`);
  // A quote's lines from other passages of its document (`also`) cite those passages under the same number, each
  // with the lines it holds (what its source's excerpt shows).
  const cites = quoted.flatMap(({ passage, lines, also = [] }, i) => {
    if (also.length === 0) return [{ ref: passage.ref, n: i + 1, quote: quotes[i] }];
    return [passage, ...also].flatMap((p) => {
      const own = lines.filter((line) => p.text.includes(line)).map(oneLine).join(' … ');
      return own || p === passage ? [{ ref: p.ref, n: i + 1, quote: own }] : [];
    });
  });
  return {
    text: `${cited.join('\n')}${note ? `\n${note}` : ''}\n\nSources: ${sources.join('; ')}`,
    usedRefs: cites.map(({ ref }) => ref),
    markers: Object.fromEntries(cites.map(({ ref, n }) => [ref, n])),
    quotes: Object.fromEntries(cites.map(({ ref, quote }) => [ref, quote])),
  };
}
