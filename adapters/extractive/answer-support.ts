/**
 * Whether the passage an answer leads with is about what the question asks: the share of the question's subject
 * (its content words, less the words that only say what to compute or which period: years, "change", "average", …,
 * and the words that shape the request) that the passage, its file name or a near spelling holds, each word weighted by
 * how rare it is among the retrieved sentences (a word no sentence holds weighs most). Asked "What were the sales in
 * 2019?" of a report that prints no sales, the best quote holds 2019 and nothing of the subject: it is no answer.
 * The threshold was chosen on development data (docs/benchmarks.md, "An honest not found").
 */
import {
  contentTokens, fileNameTerms, NOT_FOUND_ANSWER, OPERATION_WORDS, runTogetherInFileName, termKey, wordTokens, type Answer, type ContextPassage,
} from '../../core/index.js';
import { isRequestWord } from '../../core/rag/overview.js';
import { bareWord, nearSpelling } from './absent-names.js';

/**
 * Below this share of the subject's weight in the answer's own passage, the answer says the documents do not hold it:
 * for an answer read from a table (a row is named by its label, in the words a question uses), for one quoting prose
 * among tables (the passages retrieved hold table rows), and for one quoting prose alone (a sentence may say it in
 * other words: above 0.2 SQuAD's right answers were refused). Chosen on development data (docs/benchmarks.md, "An
 * honest not found").
 */
export const MIN_SUBJECT_SUPPORT = { table: 0.45, proseAmongTables: 0.4, prose: 0.2 };

/**
 * The support a quote needs: a row's, a sentence's among tables, or a sentence's in prose alone. Among tables a figure
 * or a fact is named by the words of its row or its note, and prose holding few of them speaks of another: on the
 * TAT-QA dev pages, 0.2 let 13 of 26 such quotes to questions of another report through, 0.4 none, and refused no
 * quote that answered on the questions' own report. Prose without tables says a fact in other words than the question
 * (SQuAD's training sample lost 18 of 800 answers with the stricter support for every figure question).
 */
export function minSubjectSupport(fromRows: boolean, amongTables: boolean): number {
  if (fromRows) return MIN_SUBJECT_SUPPORT.table;
  return amongTables ? MIN_SUBJECT_SUPPORT.proseAmongTables : MIN_SUBJECT_SUPPORT.prose;
}

/** A question asking for a figure: it names a year, an amount or a total, or asks how much or how many. */
const ASKS_A_FIGURE = /\b(?:19|20)\d\d\b|\bhow (?:much|many)\b|\b(?:amount|value|total|balance|figure)\b/i;

/** What a subject's word counts for when the passage holds it only apart from the word the question puts beside it. */
const APART_WEIGHT = 0.5;

/** Numbers and periods ("2019", "30,000", "FY19", "Q3") say which cell or which threshold, not what about. */
const NUMBER_OR_PERIOD = /^(?:\d[\d,.]*|(?:fy|q[1-4]|h[12])\d*)$/i;
/**
 * English words that frame a question rather than name its subject: comparisons and thresholds ("less than",
 * "exceed", "highest"), scale words, periods, and words asking for a value, a reason or a definition, or pointing at the
 * document itself ("the table", "the company's"). The subject is what is left.
 */
const FRAME_WORDS = new Set(
  ('less more than higher lower greater greatest highest lowest larger largest smaller smallest least most exceed exceeded exceeds ' +
    'above below over under thousand thousands million millions billion billions respective values reason reasons ' +
    'definition define defined term terms table tables information data company company\'s companies total number ' +
    'component components consist consists caused cause causes represent represents contributed contribute usd eur gbp ' +
    // Words of a period: which cell, as the year does ("in fiscal 2019" of a table headed "2019").
    'fiscal year years yearly annual annually quarter quarters quarterly month months monthly period periods').split(' '),
);

/** A word that frames the question (a number or period, an operation, a comparison, a request) rather than naming its subject. */
export function isFrameWord(token: string): boolean {
  return NUMBER_OR_PERIOD.test(token) || OPERATION_WORDS.has(token) || FRAME_WORDS.has(token) || isRequestWord(token);
}

export interface SubjectSupport {
  /** Share of the subject's weight the passage holds, 0-1 (1 when the question has no subject words). */
  share: number;
  /** The subject's words the passage does not hold, as the question writes them. */
  missing: string[];
}

/**
 * How much of the question's subject `passage` holds; `retrieved` (every retrieved passage) weighs the words by how
 * many of its sentences hold them. `phrases`: the question's pairs of words are looked for side by side; by default
 * only when it asks for a figure (a year, an amount, "how much"): a figure's name is a phrase ("net income"), while
 * prose says a fact in other words (SQuAD's held-out containment fell 0.877 → 0.871 with pairs for every question).
 * Not for a table's row either: named by its label in the words a question uses, in any order.
 */
export function subjectSupport(question: string, passage: ContextPassage, retrieved: readonly ContextPassage[], { phrases = ASKS_A_FIGURE.test(question) } = {}): SubjectSupport {
  const subject = [...new Map(contentTokens(question)
    .filter((t) => !isFrameWord(t))
    .map((t) => [termKey(t), t] as const))];
  if (subject.length === 0) return { share: 1, missing: [] };
  const sentences = retrieved.flatMap((p) => p.text.split(/(?<=[.!?])\s+|\n+/)).map((s) => new Set(wordTokens(s).map(termKey)));
  const rarity = (key: string) => Math.log(1 + (sentences.length + 0.5) / (sentences.filter((s) => s.has(key)).length + 0.5));
  const words = wordTokens(passage.text);
  const held = new Set([...words.map(termKey), ...fileNameTerms(passage.filename), ...runTogetherInFileName(question, passage.filename).map(termKey)]);
  const vocabulary = [...new Set(words)];
  const written = question.split(/\s+/).map(bareWord);
  // Words the question says side by side ("net income") that the passage holds only apart ("net periodic cost …
  // income") count half: it may speak of something else made of the same words.
  const keys = subject.map(([key]) => key);
  const passageKeys = contentTokens(passage.text).map(termKey);
  const pairs = new Set(passageKeys.slice(1).map((k, i) => `${passageKeys[i]} ${k}`));
  const inText = new Set(passageKeys); // a word of the file name is beside nothing
  const apart = new Set<string>();
  for (let i = 1; phrases && i < keys.length; i++) {
    if (inText.has(keys[i - 1]) && inText.has(keys[i]) && !pairs.has(`${keys[i - 1]} ${keys[i]}`) && !pairs.has(`${keys[i]} ${keys[i - 1]}`)) apart.add(keys[i - 1]).add(keys[i]);
  }
  let total = 0;
  let found = 0;
  const missing: string[] = [];
  for (const [key, token] of subject) {
    const weight = rarity(key);
    total += weight;
    if (held.has(key) || vocabulary.some((word) => nearSpelling(token, word))) found += apart.has(key) ? weight * APART_WEIGHT : weight;
    else missing.push(written.find((w) => w.toLowerCase() === token) ?? token);
  }
  return { share: total > 0 ? found / total : 1, missing };
}

/**
 * The answer turned into a "not found" that shows what came closest: the not-found sentence and the subject's words
 * the closest passage lacks first, then every quote of the answer (its direct line dropped: it answered from a passage
 * about something else) under "Closest found", with the same sources.
 */
export function asClosestFound(answer: Answer, missing: readonly string[]): Answer {
  const [body, sources] = answer.text.split('\n\nSources: ');
  const start = body.indexOf('“');
  if (start < 0 || sources === undefined) return { text: NOT_FOUND_ANSWER, usedRefs: [] };
  const quotes = body.slice(start).replace(/\n\nAlso found: /g, ' ');
  return { ...answer, text: `${closestNote(missing)}\n\nClosest found: ${quotes}\n\nSources: ${sources}` };
}

/** The not-found sentence, then the subject's words the closest passage lacks. */
export function closestNote(missing: readonly string[]): string {
  if (missing.length === 0) return NOT_FOUND_ANSWER;
  const listed = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} or ${missing.at(-1)}`;
  return `${NOT_FOUND_ANSWER} The closest passage does not mention ${listed}.`;
}
