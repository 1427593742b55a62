/** Small text utilities shared by chunking and answer building. Pure functions. */
import { stemmer } from 'stemmer';

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'no', 'fig', 'vol', 'inc', 'ltd', 'co',
  'corp', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'u.s', 'approx', 'cf',
]);

/**
 * Splits text into sentences. Good enough for retrieval and quoting: breaks after . ! ? (and closing quotes, and
 * footnote markers) followed by whitespace (and a list's bullet) and an upper-case letter, digit or quote, except after
 * common abbreviations and initials.
 */
export function splitSentences(text: string): string[] {
  const normalized = text.replace(/\s+/g, ' ').trim();
  if (!normalized) return [];
  const sentences: string[] = [];
  // A footnote marker may follow the full stop: "word.[12] Next", or a bare number after a word: "word.12 Next".
  // A list's bullet may stand between them, dropped: "synthesizers! • Ultra-fast…", or as OCR reads one, "® One", "e One".
  const boundary = /([.!?…]+["'”’)\]]*(?:\[\d+\])*(?:(?<=\p{Ll}[.!?]["'”’)]?)\d{1,3}(?!\d))?)\s+(?:(?:[•●▪◦·∙‣⁃*®¢©»~–-]|\p{Ll})\s+)?(?=["'“‘(\[]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const match of normalized.matchAll(boundary)) {
    const end = match.index + match[1].length;
    const candidate = normalized.slice(start, end);
    const lastWord = /(\S+)$/.exec(normalized.slice(start, match.index + 1))?.[1] ?? '';
    const bare = lastWord.replace(/^["'“‘(\[]+/, '').replace(/\.+$/, '').toLowerCase();
    // "Dr. Smith", "U.S. Army", "J. R. R. Tolkien": not a boundary.
    if (match[1] === '.' && (ABBREVIATIONS.has(bare) || /^\p{L}$/u.test(bare))) continue;
    // A list's number after a colon or semicolon ("four categories: 1. Transitory …; and 2. System …"): not a boundary.
    const before = normalized.slice(start, match.index + 1 - lastWord.length);
    if (match[1] === '.' && /^\d{1,2}$/.test(bare) && /(?:^|[:;]|;\s*(?:and|or))\s*$/.test(before)) continue;
    sentences.push(candidate.trim());
    start = match.index + match[0].length;
  }
  const rest = normalized.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

export function countWords(text: string): number {
  const m = text.trim().match(/\S+/g);
  return m ? m.length : 0;
}

/** Lower-case word tokens (letters and digits, any script). */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/** English function words that carry no retrieval signal. */
export const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have having he her ' +
    'here hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other ' +
    'our ours out over own same she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom whose why will with ' +
    'would you your yours also about after again against all any because before below between both during each few ' +
    'further s t don now am many much may might must shall upon within without whether yet according called name named'
  ).split(' '),
);

export function contentTokens(text: string): string[] {
  return wordTokens(text).filter((t) => !STOPWORDS.has(t));
}

/** A word without its possessive "'s": "amazon's" → "amazon". */
export function withoutPossessive(word: string): string {
  return word.replace(/['’]s$/, '');
}

/**
 * The words a lexical index looks for: a query's content words (all its words when it has none), each once, without
 * a possessive's "'s" ("Amazon's" finds "Amazon"). Each index tokenizes them further as it does the text.
 */
export function searchWords(text: string): string[] {
  const content = contentTokens(text);
  return [...new Set((content.length > 0 ? content : wordTokens(text)).map(withoutPossessive))];
}

/** Shortens text to at most `maxChars` at a word boundary, marking the cut. */
export function truncateWords(text: string, maxChars: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxChars) return clean;
  const cut = clean.slice(0, maxChars);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/**
 * A word's matching key: lower case, diacritics and possessive folded, then Porter's stemmer (the `stemmer` package:
 * "discriminated" and "discriminates" → "discrimin", "cities" → "citi"), so question and text words meet. The one
 * term key of the product: retrieval (rerank, sources) and the extractive answerer match words by it.
 */
export function termKey(word: string): string {
  let key = termKeyCache.get(word);
  if (key === undefined) {
    key = stemmer(withoutPossessive(word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()));
    if (termKeyCache.size >= TERM_KEY_CACHE_SIZE) termKeyCache.clear();
    termKeyCache.set(word, key);
  }
  return key;
}

/**
 * Keys of words seen lately: re-ranking keys every word of 50 chunks per question, mostly the same few thousand
 * words, and normalizing and stemming each was most of its time. Emptied when full (a bound, not an LRU: a
 * document's vocabulary is soon seen again).
 */
const termKeyCache = new Map<string, string>();
const TERM_KEY_CACHE_SIZE = 50_000;

/** The content words of a text as matching keys (termKey), in order. */
export function termKeys(text: string): string[] {
  return contentTokens(text).map(termKey);
}

/** The matching keys of a file name's words, its extension left out ("07-Apollo_program.pdf" → 07, apollo, program). */
export function fileNameTerms(filename: string): string[] {
  return termKeys(filename.replace(/\.\w+$/, ''));
}

/** The most words a file name runs together into one ("bankofamerica"). */
const MAX_RUN_TOGETHER = 4;

/**
 * The question's words that a file name writes run together into one of its words: "Huck Finn" of
 * scanned-huckfinn-p22.pdf, "General Mills" of GENERALMILLS_2019_10K.pdf. A run may hold function words ("Bank of
 * America" of bankofamerica.pdf); only its content words are returned. A file name's words are split on punctuation
 * only, so these would otherwise name no document.
 */
export function runTogetherInFileName(question: string, filename: string): string[] {
  const names = new Set(fileNameTerms(filename));
  const words = wordTokens(question);
  const found = new Set<string>();
  for (let from = 0; from < words.length; from++) {
    let joined = withoutPossessive(words[from]);
    for (let to = from + 1; to < Math.min(words.length, from + MAX_RUN_TOGETHER); to++) {
      joined += withoutPossessive(words[to]);
      if (names.has(termKey(joined))) for (const word of contentTokens(words.slice(from, to + 1).join(' '))) found.add(word);
    }
  }
  return [...found];
}
