/**
 * The rows a question names in a list or a pair, as phrases: "the sum of A and B in 2019", "the ratio of A to B",
 * "What were A and B …?", "… A and B, respectively". A label the question writes out whole stays one phrase, whatever
 * "and", "for" or commas it holds. English wording, like the table intents; domain-neutral.
 */
import { YEAR } from '../layout.js';
import type { TableOperation } from './table-arithmetic.js';
import type { TableGrid } from './table-grid.js';

/**
 * The row labels (of those `kind` takes) that the question writes out whole, in any case; longest first, so that a
 * label inside another is not taken out of it.
 */
export function labelsWritten(question: string, grids: readonly TableGrid[], kind: (label: string) => boolean): string[] {
  const asked = question.toLowerCase();
  return [...new Set(grids.flatMap((g) => g.rows.map((r) => r.label)))]
    .filter((label) => kind(label) && asked.includes(label.toLowerCase()))
    .sort((a, b) => b.length - a.length);
}

/**
 * The question with each row label it writes out whole that holds a word the phrases are split at ("and", "for",
 * "to") or a comma, or opens with "Total", set aside as one word, and the function that puts them back into the
 * phrases read from it: a list is then split between labels, not inside one.
 */
export function labelsKeptWhole(question: string, grids: readonly TableGrid[]): { text: string; restore: <T extends string[] | undefined>(phrases: T) => T } {
  const kept: string[] = [];
  let text = question;
  for (const label of labelsWritten(question, grids, (l) => /\b(?:and|for|to)\b|,|^total\b/i.test(l)).slice(0, 26)) {
    const at = text.toLowerCase().indexOf(label.toLowerCase());
    if (at < 0) continue;
    text = `${text.slice(0, at)}${placeholder(kept.length)}${text.slice(at + label.length)}`;
    kept.push(label);
  }
  const restore = <T extends string[] | undefined>(phrases: T): T =>
    (phrases?.map((p) => kept.reduce((out, label, i) => out.replace(placeholder(i), label), p)) ?? phrases) as T;
  return { text, restore };
}

/** A stand-in word for a label set aside: letters only, so the phrases' checks read it as words. */
function placeholder(i: number): string {
  return `qqlabel${String.fromCharCode(97 + i)}qq`;
}

/** The two rows' phrases of a two-row question: "difference between A and B", "ratio of A to B", "what percentage of B is A". */
export function twoPhrases(question: string, operation: TableOperation): [string, string] | undefined {
  const q = question.replace(/\?$/, '');
  if (operation === 'share') {
    const ofWhole = /(?:percentage|proportion|share|fraction|percent|%)\s+of\s+(?:the\s+)?(?:total\s+)?(.+?)\s+(?:is|was|are|were|does|did|came from|comes from|is made up of|consists? of)\s+(.+)/i.exec(q);
    if (ofWhole) return [ofWhole[2], ofWhole[1]];
    const asShare = /(.+?)\s+as\s+an?\s+(?:percentage|proportion|share|fraction|%)\s+of\s+(.+)/i.exec(q);
    if (asShare) return [asShare[1], asShare[2]];
    const within = /(?:proportion|share|percentage|percent|fraction)\s+of\s+(?:the\s+)?(.+?)\s+(?:in|to|of|within|out of|from|among|over)\s+(?:the\s+)?(.+)/i.exec(q);
    return within ? [within[1], within[2]] : undefined;
  }
  // "How much more A (came from X) as compared to B?": A's row, then B's.
  const compared = operation === 'difference' ? /\bhow much (?:more|less|higher|lower|greater)\s+(.+?)\s+(?:(?:as\s+)?compared (?:to|with)|than)\s+(.+)/i.exec(q) : null;
  if (compared) return [compared[1], compared[2]];
  const pair = operation === 'ratio' ? /(?:ratio\s+(?:of|between)\s+)?(.+?)\s+(?:to|and|divided by|over)\s+(.+)/i : /(?:between|of)\s+(.+?)\s+and\s+(.+)/i;
  const match = pair.exec(q.replace(/^.*?\b(?:ratio|difference)\b\s*(?:(?:of|between|in)\s+)?/i, operation === 'ratio' ? '' : 'between '));
  if (!match) return undefined;
  // "between 2019 and 2018": periods, not rows.
  if (!/\p{L}{3}/u.test(match[1].replace(YEAR, '')) || !/\p{L}{3}/u.test(match[2].replace(YEAR, ''))) return undefined;
  return [match[1], match[2]];
}

/**
 * The rows a sum or an average lists, as phrases: "sum of A and B in 2019" → A, B; "average of A, B and C" → A, B, C;
 * "average of X at <date> for A and B" → A, B.
 * Undefined unless two phrases or more name words (not periods: "A in 2018 and 2019" lists one row).
 */
export function listedPhrases(question: string): string[] | undefined {
  const list = /\b(?:sum|total|average|mean|combined)\b\s+(?:(?:amount|value)\s+)?(?:of|for)\s+(?:the\s+)?(?:amount\s+of\s+)?(.+)/i.exec(question.replace(/\?$/, ''))?.[1];
  if (!list) return undefined;
  // "the average of the net balances at September 30, 2019 for A, B and C": the rows follow "for".
  const rows = /\bfor\s+((?:(?!\bfor\b).)+?\band\b.+)$/i.exec(list)?.[1] ?? list;
  return listItems(rows.replace(PERIOD_TAIL, ''));
}
const PERIOD_TAIL = /\s+(?:in|for|during|as of|at|of)\s+(?:the\s+)?(?:\p{L}+\s+)?(?:years?\s+)?(?:(?:ended\s+)?\p{L}*\s*\d{0,2},?\s*)?(?:19|20)\d\d\b.*$/iu;

/**
 * The rows a look-up asks "respectively": "the exchange rates for A and B for 2018, respectively" → A, B; "the net
 * sales of the A and B segment respectively" → A, B segment; "the respective A and B for 2017" → A, B. Undefined unless
 * two phrases or more name words.
 */
export function respectivePhrases(question: string): string[] | undefined {
  if (!/\brespective(?:ly)?\b/i.test(question)) return undefined;
  const body = question.replace(/\?$/, '').replace(/,?\s*respectively\b/i, '').replace(PERIOD_TAIL, '');
  // "… of A and B" or "the respective A and B".
  const list = /\b(?:of|for)\s+(?:the\s+)?((?:(?!\b(?:of|for)\b).)+?\band\b(?:(?!\b(?:of|for)\b).)+)$/i.exec(body)?.[1] ?? /\brespective\s+(\S.*?\band\b.+)$/i.exec(body)?.[1];
  return list === undefined ? undefined : listItems(list);
}

/** The rows a look-up lists: "What were A and B in 2019?" → A, B (a label holding "and" is kept whole before). */
export function lookedUpPhrases(question: string): string[] | undefined {
  const list = /^\s*what\s+(?:is|are|was|were)\s+(?:the\s+)?(.+?)\s*\??$/i.exec(question)?.[1]?.replace(PERIOD_TAIL, '');
  return list && /\band\b/i.test(list) ? listItems(list) : undefined;
}

/** A list's items ("A, B and C"), or undefined unless two or more each name words, not only periods. */
function listItems(list: string): string[] | undefined {
  const items = list.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map((p) => p.trim()).filter(Boolean);
  return items.length >= 2 && items.every((p) => /\p{L}{3}/u.test(p.replace(YEAR, ''))) ? items : undefined;
}
