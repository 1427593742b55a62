import { distance } from 'fastest-levenshtein';
import { contentTokens, termKey, wordTokens, type ContextPassage } from '../../core/index.js';

/**
 * Whether the retrieved passages can answer the question at all, judged before any sentence is quoted. Without it the
 * embedded answerer quoted something for 299 of 300 SQuAD questions asked of a session that did not hold their
 * article: the sentence ranking only compares sentences, and a question word found nowhere weighed nothing.
 * Order matters: ANSWERABILITY_WEIGHTS holds one weight per feature in this order, the last being the bias.
 */
export const ANSWERABILITY_FEATURES = [
  'strictCoverage', // the best sentence's share of the question's IDF weight, a word found in no passage weighing most
  'absentShare', // share of the question's distinct words found in no passage, even misspelt (nearSpelling)
  'absentNames', // share of the question's names (capitalised words past its first) found in no passage, even misspelt
  'bestPassageShare', // the largest share of the question's distinct words that one passage holds
  'bestScore', // the sentence ranking's best score (SENTENCE_WEIGHTS), over 10
  'bestPhrase', // the largest share of the question's word pairs that one sentence also holds side by side
  'bias',
] as const;

/**
 * Fitted by bench/train-answerer.ts (logistic, on the questions of the 16 SQuAD training articles, each asked with its
 * article and without it), then the bias lowered until at most 0.5 % of the training questions answered correctly with
 * their article are refused (4-fold out of fold: 0.5 % refused, 59 % of those asked without it refused).
 * EXPERIMENT, measured and not kept: held-out SQuAD containment 0.888 → 0.878 with 61 % of unanswerable questions
 * refused, but FinanceBench held-out evidence page 0.889 → 0.704 (its long, many-sentence questions). Names alone
 * ([0, 0, -2, 0, 0, 0, 1]: refuse when most of the question's names are absent): SQuAD 0.883, 24 % refused,
 * FinanceBench 0.778.
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [1.51, -1.23, -2.94, 3.53, 2.52, 3.42, -3.22];

/** A sentence as the answerer scored it: its text, score and SENTENCE_FEATURES values. */
export interface ScoredSentence {
  text: string;
  score: number;
  features: readonly number[];
}

/** PHRASE_FEATURE: the index of 'phrase' in SENTENCE_FEATURES. */
const PHRASE_FEATURE = 4;

/** The ANSWERABILITY_FEATURES values of a question, its passages and their scored sentences. */
export function answerabilityFeatures(question: string, contexts: readonly ContextPassage[], sentences: readonly ScoredSentence[]): number[] {
  const words = [...new Set(contentTokens(question))];
  const asked = [...new Set(words.map(termKey))];
  if (asked.length === 0) return [0, 1, 0, 0, 0, 0, 1];
  const sentenceSets = sentences.map((s) => new Set(wordTokens(s.text).map(termKey)));
  const passageWords = contexts.map((p) => wordTokens(p.text));
  const passageSets = passageWords.map((tokens) => new Set(tokens.map(termKey)));
  const vocabulary = [...new Set(passageWords.flat())];
  // A stem is found when a passage holds it, or a word spelt nearly as the question spells it ("Ghandi", "Gandhi").
  const foundStems = new Set(asked.filter((t) => passageSets.some((set) => set.has(t))));
  for (const word of words) if (!foundStems.has(termKey(word)) && vocabulary.some((v) => nearSpelling(word, v))) foundStems.add(termKey(word));
  const found = (t: string) => foundStems.has(t);
  // IDF over the sentences; a word in none of them weighs as if it were the rarest possible (df 0).
  const n = sentenceSets.length;
  const idf = (t: string) => {
    const df = sentenceSets.reduce((count, set) => count + (set.has(t) ? 1 : 0), 0);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const weights = new Map(asked.map((t) => [t, idf(t)]));
  const total = [...weights.values()].reduce((a, b) => a + b, 0) || 1;
  const strictCoverage = Math.max(0, ...sentenceSets.map((set) => asked.reduce((sum, t) => sum + (set.has(t) ? weights.get(t)! : 0), 0) / total));
  const absentShare = asked.filter((t) => !found(t)).length / asked.length;
  const names = [...new Set(questionNames(question).flatMap((w) => contentTokens(w).map(termKey)))];
  const absentNames = names.length > 0 ? names.filter((t) => !found(t)).length / names.length : 0;
  const bestPassageShare = Math.max(0, ...passageSets.map((set) => asked.filter((t) => set.has(t)).length / asked.length));
  const bestScore = Math.max(0, ...sentences.map((s) => s.score)) / 10;
  const bestPhrase = Math.max(0, ...sentences.map((s) => s.features[PHRASE_FEATURE] ?? 0));
  return [strictCoverage, absentShare, absentNames, bestPassageShare, bestScore, bestPhrase, 1];
}

/**
 * The question's names: words written as names are (a capital, then small letters) that do not open a sentence
 * ("What is the FY2018 … ? Address the question …" has none). Capitals alone (USD, IKEA) are left out: units and
 * acronyms are written so as often as names.
 */
export function questionNames(question: string): string[] {
  const words = question.split(/\s+/).filter(Boolean);
  return words.flatMap((word, i) => {
    const bare = word.replace(/^["'“‘(]+|["'”’),;:.?!]+$/g, '');
    const opensSentence = i === 0 || /[.?!:]["'”’)]*$/.test(words[i - 1]);
    return !opensSentence && /^\p{Lu}\p{Ll}[\p{L}'’-]*$/u.test(bare) ? [bare] : [];
  });
}

/**
 * Two words of one spelling give or take a slip, from 5 letters on: one edit (Levenshtein: "Bedigo", "Bendigo"), or
 * the same letters with one moved ("Ghandi", "Gandhi": two edits). Two edits of other kinds make another word
 * ("France", "finance"), and so does one in a shorter word ("salt", "malt").
 */
export function nearSpelling(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false;
  const edits = distance(a, b);
  return edits <= 1 || (edits === 2 && a.length === b.length && sortedLetters(a) === sortedLetters(b));
}

function sortedLetters(word: string): string {
  return [...word].sort().join('');
}

/** The passages are taken to hold an answer when the weighted sum is positive. */
export function answerable(features: readonly number[], weights: readonly number[] = ANSWERABILITY_WEIGHTS): boolean {
  return features.reduce((sum, value, i) => sum + value * weights[i], 0) > 0;
}
