import type { HistoryTurn } from '../ports/llm.js';
import { withPeriodResolved } from './follow-up-period.js';
import { contentTokens, STOPWORDS, withoutPossessive } from './text.js';

/**
 * A follow-up question made a question of its own from the questions before it, for answerers without a model to do
 * it (a model's Llm.rewriteQuestion is used where there is one). English rules, no list of subjects:
 * - an ellipsis ("And in 2000?", "What about Krakow?", "Krakow?") is the previous question with the years and names it
 *   gives in place of the previous ones: "How many people lived in Warsaw in 1990?" then "What about Krakow?" asks
 *   "How many people lived in Krakow in 1990?";
 * - one with a subject of its own but no name ("What was its population?", "And the mayors?") keeps its words and
 *   gains the previous question's names and years;
 * - a period relative to the one before ("And the year before?") is the year it means (core/rag/follow-up-period.ts);
 * - any other question (it names someone, or refers to nothing before it) stands as asked.
 * The previous question is itself resolved against the one before it, over the history given.
 */
export function followUpQuestion(question: string, history: readonly HistoryTurn[]): string {
  let previous: string | undefined;
  let answer: string | undefined;
  for (const turn of history) {
    if (turn.role === 'user') {
      previous = previous === undefined ? turn.content : resolve(turn.content, previous, answer);
      answer = undefined;
    } else answer = turn.content;
  }
  return previous === undefined ? question : resolve(question, previous, answer);
}

/**
 * The documents a follow-up ("And when does it take effect?") is about: those the latest answer that quoted any quoted.
 * None for a question that stands on its own or names something of its own, or with no such answer among the turns.
 */
export function referredDocuments(question: string, history: readonly HistoryTurn[]): string[] {
  // A follow-up that names something of its own ("What about Krakow?", "And the DMCA?") moves on from them.
  if (followUpQuestion(question, history) === question || namesOf(question, true).length > 0 || ACRONYM.test(question)) return [];
  return history.findLast((turn) => turn.role === 'assistant' && (turn.cited?.length ?? 0) > 0)?.cited ?? [];
}

/**
 * The names a follow-up gives of its own ("What about Contoso?" → Contoso, "And IBM?" → IBM): what it moves on to.
 * None for a question that stands on its own.
 */
export function followUpNames(question: string, history: readonly HistoryTurn[]): string[] {
  if (followUpQuestion(question, history) === question) return [];
  const acronyms = question.replace(ELLIPSIS, '').match(new RegExp(ACRONYM.source, 'gu')) ?? [];
  return [...new Set([...namesOf(question, true), ...acronyms])];
}

/** Words that open an ellipsis: the rest of the question is what changes. */
const ELLIPSIS = /^\s*(?:and\s+)?(?:what|how)\s+about\b|^\s*(?:and|also|same\s+for|now\s+for)\b/i;
/** Words that point back to what the conversation is about ("this" and "that" are more often "this year", "the fee that"). */
const REFERENCE = /\b(?:it|its|they|them|their|he|him|his|she|her)\b/i;
const WH_WORD = /\b(?:what|who|whom|whose|when|where|why|how|which)\b/i;
const VERB = /\b(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|may|might)\b/i;
const YEAR = /\b(?:19|20)\d\d\b/g;
/** A word in capitals (DMCA, FAA): a name a follow-up gives, though namesOf leaves such words to what is asked. */
const ACRONYM = /\b\p{Lu}{2,}\b/u;

/** A fragment of more words than this, besides names and years, is a question of its own ("The atomic number of oxygen?"). */
const MAX_FRAGMENT_WORDS = 2;

function resolve(asked: string, previous: string, previousAnswer?: string): string {
  // "And the year before?": the year it means, counted from the previous question's or its answer's; only of a
  // follow-up that names no year of its own ("additions for tax positions of a prior period in 2019" asks as it is).
  const periodic = /\b(?:19|20)\d\d\b/.test(asked) ? undefined : withPeriodResolved(asked, previous, previousAnswer);
  const resolved = periodic === undefined ? undefined : resolveAsked(periodic, previous);
  return resolved !== undefined && resolved !== periodic ? resolved : resolveAsked(asked, previous);
}

function resolveAsked(question: string, previous: string): string {
  const verbless = !WH_WORD.test(question) && !VERB.test(question); // "Krakow?", "In 2000?", "Net income?"
  const names = namesOf(question, verbless);
  const years = question.match(YEAR) ?? [];
  const named = new Set([...names.map((n) => n.toLowerCase()), ...years]);
  const fragment = verbless && contentTokens(question).map(withoutPossessive).filter((w) => !named.has(w)).length <= MAX_FRAGMENT_WORDS;
  const ellipsis = fragment || ELLIPSIS.test(question);
  const refers = REFERENCE.test(question.replace(ELLIPSIS, ''));
  if (!ellipsis && !(refers && names.length === 0)) return question;
  const newWords = contentTokens(question.replace(ELLIPSIS, '')).map(withoutPossessive).filter((w) => !named.has(w) && !REFERENCE.test(w));
  if (ellipsis && newWords.length === 0) return withYears(withNames(previous, names), years);
  // A subject of its own: its words, with the names and years it leaves out taken from before.
  const context = [...(names.length > 0 ? [] : namesOf(previous)), ...(years.length > 0 ? [] : previous.match(YEAR) ?? [])];
  const own = withoutEnd(question.replace(ELLIPSIS, '').trim());
  return `${own}${context.length > 0 ? ` (${[...new Set(context)].join(' ')})` : ''}?`;
}

/**
 * Names: words written as names are (a capital, then small letters) past a sentence's first (or from the first, in a
 * fragment), possessive dropped ("Warsaw's" → "Warsaw"). Capitals alone (CEO, USD) are what is asked about, not whom.
 */
function namesOf(text: string, firstWordToo = false): string[] {
  const words = text.replace(ELLIPSIS, (lead) => ' '.repeat(lead.length)).split(/\s+/).filter(Boolean);
  const start = firstWordToo || ELLIPSIS.test(text) ? -1 : 0;
  return words.flatMap((word, i) => {
    const bare = withoutPossessive(word.replace(/^["'“‘(]+|["'”’),;:.?!]+$/g, ''));
    return i !== start && /^\p{Lu}\p{Ll}[\p{L}\p{N}&.-]*$/u.test(bare) && !STOPWORDS.has(bare.toLowerCase()) ? [bare] : [];
  });
}

/** The previous question with `names` in place of its own names (at the first one), or them added when it has none. */
function withNames(previous: string, names: string[]): string {
  if (names.length === 0) return previous;
  const old = namesOf(previous);
  if (old.length === 0) return `${withoutEnd(previous)} (${names.join(' ')})?`;
  return inPlaceOfFirst(previous, new RegExp(`\\b(?:${old.map(escape).join('|')})\\b`, 'g'), names.join(' ')) ?? previous;
}

/** The previous question with `years` in place of its own (the first one; the others dropped), or them added. */
function withYears(previous: string, years: string[]): string {
  if (years.length === 0) return previous;
  return inPlaceOfFirst(previous, YEAR, years.join(' and ')) ?? `${withoutEnd(previous)} in ${years.join(' and ')}?`;
}

/** `text` with the first match of the global `pattern` replaced and the other matches dropped; undefined when none. */
function inPlaceOfFirst(text: string, pattern: RegExp, replacement: string): string | undefined {
  let placed = false;
  const replaced = text.replace(pattern, () => (placed ? '' : ((placed = true), replacement)));
  return placed ? replaced.replace(/\s{2,}/g, ' ') : undefined;
}

/** A question without its closing mark, to add to. */
function withoutEnd(question: string): string {
  return question.replace(/[?.!\s]+$/, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
