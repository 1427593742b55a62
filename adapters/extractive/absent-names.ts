import { distance } from 'fastest-levenshtein';
import { contentTokens, NOT_FOUND_ANSWER, runTogetherInFileName, SHORT_YEAR, SPLIT_YEAR, termKey, wordTokens, YEAR, yearOf, type ContextPassage } from '../../core/index.js';

/**
 * Whether the passages found can answer at all, judged by the names the question asks about. The answerer quotes the
 * best-matching sentences whatever they are: asked "What is the capital of France?" of a company's 10-Q, it quoted the
 * 10-Q's "capital structure" sentence as if it answered. When most of the question's names appear in no passage (nor in
 * a passage's file name, which names what a report is about when its pages do not), the answer still quotes the
 * closest passage, under "Closest found", after saying first that the documents do not hold the answer (notFoundNote).
 * A right answer whose question misspells or renames its subject is so marked too, its passage still shown (figures in
 * docs/benchmarks.md, "An honest not found"). Capitals alone (USD, FY2018, IKEA) are not taken for
 * names: units and acronyms are written so as often as names, and a document often spells them out.
 */
export function absentNames(question: string, contexts: readonly ContextPassage[]): string[] | undefined {
  const names = [...new Map(questionNames(question).flatMap((name) => contentTokens(name).map((token) => [termKey(token), name] as const))).entries()];
  if (names.length === 0 || contexts.length === 0) return undefined;
  const passageWords = contexts.flatMap((passage) => [...wordTokens(passage.text), ...wordTokens(passage.filename)]);
  const found = new Set(passageWords.map(termKey));
  for (const filename of new Set(contexts.map((passage) => passage.filename))) for (const word of runTogetherInFileName(question, filename)) found.add(termKey(word));
  const vocabulary = [...new Set(passageWords)];
  const absent = names.filter(([key, name]) => !found.has(key) && !vocabulary.some((word) => nearSpelling(name.toLowerCase(), word)));
  // "Most": with one name that one, with two both, with three two of them.
  if (absent.length * 2 <= names.length) return undefined;
  return [...new Set(absent.map(([, name]) => name))];
}

/**
 * The years a question names when no passage holds any of them, in full, split ("2018/19" holds 2019) or short ("FY19",
 * "F19"): asked "What was X in 2017?" of passages of 2018 and 2019, a figure found is another year's. Undefined when
 * it names none, or a passage or its file name holds one.
 */
export function absentYears(question: string, contexts: readonly ContextPassage[]): string[] | undefined {
  const years = [...new Set(question.match(YEAR) ?? [])];
  if (years.length === 0 || contexts.length === 0) return undefined;
  const held = new Set(contexts.flatMap((p) => [...yearsWritten(p.text), ...yearsWritten(p.filename)]));
  return years.some((year) => held.has(Number(year))) ? undefined : years;
}

/** The years a text writes, as the tables read them: in full, split or short (core's YEAR, SPLIT_YEAR, SHORT_YEAR). */
function yearsWritten(text: string): number[] {
  return [...(text.match(YEAR) ?? []).map(Number), ...[...(text.match(SPLIT_YEAR) ?? []), ...(text.match(SHORT_YEAR) ?? [])].map(yearOf)];
}

/**
 * The question's names: words written as names are (a capital, then small letters) that do not open a sentence ("What
 * is the FY2018 … ? Address the question …" has none), without a possessive ending.
 */
export function questionNames(question: string): string[] {
  const words = question.split(/\s+/).filter(Boolean);
  return words.flatMap((word, i) => {
    const bare = bareWord(word);
    const opensSentence = i === 0 || /[.?!:]["'”’)]*$/.test(words[i - 1]);
    return !opensSentence && /^\p{Lu}\p{Ll}[\p{L}'’-]*$/u.test(bare) ? [bare] : [];
  });
}

/** A word of a question as written, without the quotes and marks around it nor a possessive "'s" ("Nike's?" → Nike). */
export function bareWord(word: string): string {
  return word.replace(/^["'“‘(]+|["'”’),;:.?!]+$/g, '').replace(/['’]s$/, '');
}

/**
 * Two words of one spelling give or take a slip, from 5 letters on: one edit (Levenshtein: "bedigo", "bendigo"), or
 * the same letters with one moved ("ghandi", "gandhi": two edits). Two edits of other kinds make another word
 * ("france", "finance"), and so does one in a shorter word ("salt", "malt"). Written for lower-case words.
 */
export function nearSpelling(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false;
  const edits = distance(a, b);
  return edits <= 1 || (edits === 2 && a.length === b.length && sortedLetters(a) === sortedLetters(b));
}

function sortedLetters(word: string): string {
  return [...word].sort().join('');
}

/**
 * What a weak match's answer says first: that the documents do not hold the answer (the not-found sentence, so clients
 * and models read it as one), naming the names no passage holds when there are such.
 */
export function notFoundNote(names: readonly string[]): string {
  if (names.length === 0) return NOT_FOUND_ANSWER;
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `${NOT_FOUND_ANSWER} None of the passages I found mentions ${listed}.`;
}

const CLOSEST_FOUND = /\n\nClosest found: /;

/** Whether an answer is a not-found that still shows the closest passages (for benchmarks and clients that count them). */
export function isWeakMatchAnswer(text: string): boolean {
  return text.startsWith(NOT_FOUND_ANSWER) && CLOSEST_FOUND.test(text);
}

/**
 * What an answer offers as its answer: nothing when it says the documents do not hold one (its closest passages are
 * not an answer), else the whole text. Benchmarks score this.
 */
export function offeredAnswer(text: string): string {
  return text.startsWith(NOT_FOUND_ANSWER) ? '' : text;
}
