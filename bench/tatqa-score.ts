/**
 * Whether an answer carries a TAT-QA gold answer (bench/tatqa.ts):
 * - span and multi-span: every gold span is in the answer, both normalised as SQuAD does (metrics.normalizeAnswer:
 *   case, punctuation, articles, spacing); a span that is a single number ("$1,496.5", "(12.6)", "12.5%") may also be
 *   carried by value;
 * - arithmetic and count: some number in the answer equals the gold by value (carriesValue); for a count, a number
 *   the answer says itself (a digit or a word), not one inside a quote.
 * Numbers are read as values, so printing does not matter: thousands separators, currency signs, parentheses or a
 * minus for negatives (the sign is ignored: "a decrease of 12.6" answers a change of -12.6), a trailing %, and a scale
 * word ("$1.50 billion" for a gold of 1,496.5 in millions). Years in the answer (1900-2099 as printed, no separator or
 * decimals) count only when the gold itself is such a year: they head every column of a table.
 */
import { answerBody, normalizeAnswer } from './metrics.js';
import type { TatqaAnswerType } from './tatqa-data.js';

export interface TatqaGold {
  answer: string[] | number | string;
  answer_type: TatqaAnswerType;
  scale: string;
}

const SCALE: Record<string, number> = { '': 1, percent: 1, thousand: 1e3, million: 1e6, billion: 1e9 };
const UNIT: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, mn: 1e6, m: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

const NUMBER = /(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(thousand|million|billion|mn|bn|k|m|b)\b)?/gi;

/** A number as printed: its value (a unit word applied), its decimals, its significant digits, its unit word's factor. */
export interface PrintedNumber {
  value: number;
  decimals: number;
  significant: number;
  /** 1 without a unit word. */
  unit: number;
  isYear: boolean;
}

export function numbersIn(text: string): PrintedNumber[] {
  const out: PrintedNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    // Digits inside a word ("Q4", "3D", "FY19") are not a figure.
    if (m.index > 0 && /\p{L}/u.test(text[m.index - 1])) continue;
    const [, whole, fraction = '', unitWord] = m;
    const unit = unitWord ? UNIT[unitWord.toLowerCase()] : 1;
    out.push({
      value: Number(whole.replace(/,/g, '') + fraction) * unit,
      decimals: fraction ? fraction.length - 1 : 0,
      significant: (whole.replace(/,/g, '') + fraction.slice(1)).replace(/^0+/, '').length,
      unit,
      isYear: !fraction && !unitWord && /^(19|20)\d\d$/.test(whole),
    });
  }
  return out;
}

/**
 * Whether `text` prints the gold number (in the gold's `scale`) by value, sign ignored:
 * - printed as precisely as the gold or more: equal at the gold's decimals, and at least at 2 (TAT-QA rounds its
 *   arithmetic answers to 2 decimals, so 22.2222 answers 22.22 but 172.4 does not answer 172);
 * - printed less precisely: the gold rounds to it ("22.2%" for 22.22, "1,497" for 1,496.5), if it keeps 3 significant
 *   digits, or 2 and a decimal ("6.7" for 6.67 counts; "7" or "22" do not);
 * - a number with a scale word is compared in the gold's scale ("$1.50 billion" for 1,496.5 million); one without is
 *   taken as printed in the table's units, which are the gold's.
 */
export function carriesValue(text: string, gold: number, scale = ''): boolean {
  const target = Math.abs(gold);
  const goldIsYear = Number.isInteger(gold) && gold >= 1900 && gold <= 2099;
  const goldStep = 10 ** -decimalsOf(gold);
  const slack = 1e-9 * Math.max(1, target);
  const scaleFactor = SCALE[scale] ?? 1;
  return numbersIn(text).some((n) => {
    if (n.isYear && !goldIsYear) return false;
    const inGoldScale = n.unit === 1 ? 1 : 1 / scaleFactor;
    const value = Math.abs(n.value) * inGoldScale;
    const step = 10 ** -n.decimals * n.unit * inGoldScale;
    if (step <= goldStep + slack) return Math.abs(value - target) <= 0.5 * Math.min(goldStep, 0.01) + slack;
    const enoughDigits = n.significant >= 3 || (n.decimals > 0 && n.significant >= 2);
    return enoughDigits && Math.abs(value - target) <= 0.5 * step + slack;
  });
}

function decimalsOf(n: number): number {
  const text = String(n);
  return text.includes('.') && !text.includes('e') ? text.split('.')[1].length : 0;
}

/** A gold span that is one number and nothing else ("$1,496.5", "(12.6)", "12.5%", "2019"), as a value. */
export function spanNumber(span: string): number | undefined {
  const m = /^\s*\(?\s*-?\s*[$€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*\)?\s*%?\s*$/.exec(span);
  return m ? Number(m[1].replace(/,/g, '') + (m[2] ?? '')) : undefined;
}

function carriesSpan(text: string, span: string, scale: string, asBefore: boolean): boolean {
  const needle = normalizeAnswer(span);
  if (needle.length > 0 && ` ${normalizeAnswer(text)} `.includes(` ${needle} `)) return true;
  const value = spanNumber(span);
  if (value !== undefined && carriesValue(text, value, scale)) return true;
  return !asBefore && carriesSpanFigure(text, span, scale);
}

/** A gold span that is one figure with its unit as the report prints it ("$16.9 million", "3.6%", "£(8.1m)", "29 per cent"). */
export function spanFigure(span: string): { value: number; decimals: number; factor?: number } | undefined {
  const m = /^\s*[$€£]?\s*\(?\s*[$€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|per\s*cent|thousand|million|billion|bn|m)?\s*\)?\s*$/i.exec(span);
  if (!m) return undefined;
  const word = m[3]?.toLowerCase().replace(/\s+/g, '');
  const factor = !word || word === '%' || word === 'percent' ? undefined : UNIT[word];
  return { value: Number(m[1].replace(/,/g, '') + (m[2] ?? '')), decimals: m[2] ? m[2].length - 1 : 0, ...(factor ? { factor } : {}) };
}

/**
 * Whether `text` prints the figure a gold span prints, by value at the span's own precision (sign ignored): the report
 * printed "$16.9 million", so "$16,901 thousand" or a computed "16.90" carries it, and "13.19%" carries "13.2". A number
 * of the answer without a unit word is in the table's units (the gold's scale); a less precise one must round from the
 * span and keep enough digits, as for carriesValue.
 */
export function carriesSpanFigure(text: string, span: string, scale = ''): boolean {
  const figure = spanFigure(span);
  if (!figure) return false;
  const tableFactor = SCALE[scale] ?? 1;
  const spanFactor = figure.factor ?? tableFactor;
  const target = figure.value * spanFactor;
  const step = 10 ** -figure.decimals * spanFactor;
  const goldIsYear = figure.factor === undefined && Number.isInteger(figure.value) && figure.value >= 1900 && figure.value <= 2099;
  const slack = 1e-9 * Math.max(1, target);
  return numbersIn(text).some((n) => {
    if (n.isYear && !goldIsYear) return false;
    const factor = n.unit === 1 ? tableFactor : 1;
    const value = Math.abs(n.value) * factor;
    const nStep = 10 ** -n.decimals * n.unit * factor;
    if (nStep <= step + slack) return Math.abs(value - target) <= 0.5 * step + slack;
    const enoughDigits = n.significant >= 3 || (n.decimals > 0 && n.significant >= 2);
    return enoughDigits && Math.abs(value - target) <= 0.5 * nStep + slack;
  });
}

/**
 * Whether `text` (an answer, or its lead) carries the gold answer. `asBefore`: as scored until stop 55, when a span's
 * figure counted only when printed bare and at its own precision ("$16.9 million" was not read as a figure).
 */
export function carriesGold(text: string, gold: TatqaGold, asBefore = false): boolean {
  const body = answerBody(text);
  switch (gold.answer_type) {
    case 'span':
    case 'multi-span': {
      const spans = Array.isArray(gold.answer) ? gold.answer : [String(gold.answer)];
      return spans.length > 0 && spans.every((span) => carriesSpan(body, span, gold.scale, asBefore));
    }
    case 'count': {
      // Said in the answer's own words, not inside a quote: a quoted table is full of small numbers ("Other (1)").
      const own = body.replace(/“[^”]*”?/g, ' ');
      const count = Number(Array.isArray(gold.answer) ? gold.answer[0] : gold.answer);
      const word = WORDS[count];
      return carriesValue(own, count) || (word !== undefined && new RegExp(`\\b${word}\\b`, 'i').test(own));
    }
    case 'arithmetic': {
      const value = Number(Array.isArray(gold.answer) ? gold.answer[0] : gold.answer);
      return Number.isFinite(value) && carriesValue(body, value, gold.scale);
    }
  }
}

/**
 * The answer's lead: what a reader takes in first. The answer's body (no "may not answer" note, no source list), its
 * first line, and of that what stands before the first quote ("2018: $533 — “…”" leads with "2018: $533"); an answer
 * that opens with a quote leads with that quote's first sentence, or first table row (rows are joined by " | ").
 */
export function answerLead(answer: string, cut?: (text: string) => string, { asStop54 = false, asStop57 = asStop54 }: { asStop54?: boolean; asStop57?: boolean } = {}): string {
  const sentence = cut ?? ((text: string) => firstSentence(text, { asStop57 }));
  const firstLine = answerBody(answer).trim().split('\n')[0];
  const before = firstLine.split('“')[0].replace(/[\s—–:-]+$/, '');
  if (/[\p{L}\p{N}]/u.test(before)) return sentence(before);
  // The quote ends at the ” before its source mark, the next quote or the line's end: a quotation mark inside it (the
  // document's “Act”) does not end it.
  // Until stop 55 it did (asStop54), which cut such leads short.
  const quote = (asStop54 ? undefined : /“(.*?)”(?=\s*(?:“|\[\d+\]|$))/.exec(firstLine)?.[1]) ?? /“([^”]*)”?/.exec(firstLine)?.[1] ?? firstLine;
  return sentence(asStop57 ? quote.split(' | ')[0] : firstTableLine(quote));
}

/**
 * The quote up to its first table row's end. Since stop 57 a column header read by columns joins its cells with the
 * same " | " as rows ("2019 | 2018 … Revenue 3,037 2,210"): a quote that opens with such a header reads on to the row
 * after its " … ". Until stop 57 the first cell alone was taken (asStop57).
 */
function firstTableLine(quote: string): string {
  const afterHeader = quote.indexOf(' … ');
  const header = afterHeader > 0 ? quote.slice(0, afterHeader) : '';
  if (!header.includes(' | ') || /[.!?]\s/.test(header)) return quote.split(' | ')[0];
  const rowEnd = quote.indexOf(' | ', afterHeader);
  return rowEnd < 0 ? quote : quote.slice(0, rowEnd);
}

/**
 * The first sentence: up to a full stop (or ! ?) before a capital, a quote or a bracket, but not the stop of an
 * abbreviation ("U.S. GAAP", "Inc.", "No.", "e.g.") nor a list item's number at the very start ("1. Order intake …").
 * Until stop 54 the lead was cut at any such stop (firstSentenceAsBefore), which cut right answers short.
 */
export function firstSentence(text: string, { asStop57 = false } = {}): string {
  const t = text.trim();
  const start = /^(?:\(?\d{1,2}[.)]\s+)/.exec(t)?.[0].length ?? 0;
  for (const m of t.slice(start).matchAll(/[.!?](?=\s+[“"(\p{Lu}])/gu)) {
    const upTo = t.slice(0, start + m.index + 1);
    if (/(?:\b(?:[A-Za-z]\.){1,3}|\b(?:Inc|Co|Corp|Ltd|No|Nos|vs|Mr|Mrs|Ms|Dr|St|Jr|Sr|approx|etc)\.)$/.test(upTo)) continue;
    // A column heading in capitals ("2019 NO. OF RIGHTS") abbreviates too (not so until stop 57).
    if (!asStop57 && /\b(?:NO|NOS)\.$/.test(upTo)) continue;
    return upTo.trim();
  }
  return t;
}

/** The first sentence as the bench cut it until stop 54: at any full stop before a capital. */
export function firstSentenceAsBefore(text: string): string {
  return (/^.*?[.!?](?=\s+[“"(\p{Lu}])/u.exec(text)?.[0] ?? text).trim();
}

/**
 * The answer as a comparison's winner alone: a comparison's line lists every candidate after its answer ("2018: X, the
 * largest. (2019: 4.2; 2018: 5.1)"), and its quote prints every period, so either carries any candidate. Any other
 * answer as it is. Scored since stop 58, beside the whole answer.
 */
export function withoutCandidates(answer: string): string {
  const first = answer.split('\n')[0];
  return /\. \(.*\)$/.test(first) ? first.replace(/\. \(.*\)$/, '.') : answer;
}
