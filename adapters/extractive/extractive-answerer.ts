import { stemmer } from 'stemmer';
import type { Answer, AnswerRequest, ContextPassage, Llm } from '../../core/ports/llm.js';
import { contentTokens, countWords, splitSentences, wordTokens } from '../../core/rag/text.js';

export const NOT_FOUND_TEXT = 'I could not find this in your documents.';
export const MAX_ANSWER_WORDS = 80;
const MAX_SENTENCES = 3;
/** A sentence cut shorter than this says too little to be worth quoting. */
const MIN_EXCERPT_WORDS = 12;

export interface Candidate {
  passage: ContextPassage;
  /** Rank of the passage in retrieval order, from 0. */
  rank: number;
  /** Position of the sentence within its passage. */
  position: number;
  text: string;
  words: number;
  score: number;
}

/**
 * The embedded answerer: no model, it quotes the one to three sentences of the retrieved passages that best match
 * the question (at most 80 words), naming file and page. Sentences are scored by the IDF-weighted question terms
 * they contain (stemmed), phrase matches of consecutive question terms, and the retrieval rank of their passage.
 */
export class ExtractiveAnswerer implements Llm {
  async answer(request: AnswerRequest): Promise<Answer> {
    const ranked = this.rankSentences(request);
    const best = ranked[0];
    // Too weak a match is no answer: better to say so than to quote something unrelated.
    if (!best || best.score < 0.2) return notFound();

    const queryTerms = new Set(stems(contentTokens(request.question)));
    const first = fitted(best, MAX_ANSWER_WORDS, queryTerms);
    const chosen: Candidate[] = [first];
    let words = first.words;
    for (const next of ranked.slice(1)) {
      if (chosen.length >= MAX_SENTENCES || words >= MAX_ANSWER_WORDS - MIN_EXCERPT_WORDS) break;
      if (chosen.some((c) => c.text === next.text)) continue;
      // Fill the 80 words: a runner-up sentence often holds the answer when the best match only restates the question.
      const room = MAX_ANSWER_WORDS - words;
      const piece = fitted(next, room, queryTerms);
      chosen.push(piece);
      words += piece.words;
    }
    return { text: render(chosen), usedRefs: [...new Set(chosen.map((c) => c.passage.ref))] };
  }

  /** The passages' sentences that match the question, best first. */
  rankSentences(request: AnswerRequest): Candidate[] {
    const queryTerms = stems(contentTokens(request.question));
    if (queryTerms.length === 0 || request.contexts.length === 0) return [];
    const candidates = request.contexts.flatMap((passage, rank) =>
      splitSentences(passage.text).map((text, position): Candidate => ({
        passage, rank, position, text, words: countWords(text), score: 0,
      })),
    );
    const idf = inverseFrequencies(candidates.map((c) => new Set(stems(wordTokens(c.text)))));
    const queryWeight = queryTerms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
    const expected = expectedAnswerType(request.question);
    candidates.forEach((candidate, i) => {
      const previous = i > 0 && candidates[i - 1].passage === candidate.passage ? candidates[i - 1] : undefined;
      candidate.score = scoreSentence(candidate, queryTerms, idf, queryWeight, expected, previous);
    });

    // Equal scores: the shorter sentence, which says the same with less noise.
    return candidates.filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.words - b.words);
  }
}

function notFound(): Answer {
  return { text: NOT_FOUND_TEXT, usedRefs: [] };
}

function stems(tokens: string[]): string[] {
  return tokens.map((t) => stemmer(t));
}

/** IDF over the candidate sentences: words present everywhere in the retrieved text say little. */
function inverseFrequencies(sentences: Set<string>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const terms of sentences) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  const idf = new Map<string, number>();
  for (const [term, count] of df) idf.set(term, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  return idf;
}

/** Weight of question terms found only in the sentence before: it often names the subject the answer is about. */
const PREVIOUS_SENTENCE_WEIGHT = 0.4;
/** Each passage further down the retrieval ranking counts a little less. */
const RANK_DECAY = 0.15;
/** Boost for a sentence holding the kind of answer asked for (a number for "how many", a date for "when"…). */
const ANSWER_TYPE_BOOST = 1.2;

/**
 * Share of the question's IDF weight a sentence covers (terms present only in the previous sentence count 0.4),
 * times a rank prior and an answer-type boost. Tuned on the quality benchmark’s SQuAD sample and checked on three
 * other samples (see the closing note of the ingestion issue); phrase bonuses,
 * length damping and novelty weights were tried and did not help.
 */
function scoreSentence(candidate: Candidate, queryTerms: string[], idf: Map<string, number>, queryWeight: number, expected: AnswerType, previous?: Candidate): number {
  const present = new Set(stems(wordTokens(candidate.text)));
  const before = previous ? new Set(stems(wordTokens(previous.text))) : new Set<string>();
  let matched = 0;
  let own = 0;
  for (const term of new Set(queryTerms)) {
    if (present.has(term)) {
      matched += idf.get(term) ?? 0;
      own += 1;
    } else if (before.has(term)) matched += PREVIOUS_SENTENCE_WEIGHT * (idf.get(term) ?? 0);
  }
  if (own === 0 || queryWeight === 0) return 0;
  const coverage = matched / queryWeight;
  // Very short fragments (headings, table cells) rarely answer anything.
  const lengthFactor = candidate.words < 5 ? 0.5 : 1;
  const rankPrior = 1 / (1 + RANK_DECAY * candidate.rank);
  const typeFactor = answerTypeFits(expected, candidate.text, queryTerms) ? ANSWER_TYPE_BOOST : 1;
  return coverage * lengthFactor * rankPrior * typeFactor;
}

type AnswerType = 'number' | 'time' | 'name' | 'any';

/** What kind of answer a question asks for, from its wh-word: a cheap cue that separates otherwise equal sentences. */
export function expectedAnswerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (/\b(how (many|much|long|far|old|large|big|tall|high|often)|what (percentage|percent|number|amount))\b/.test(q)) return 'number';
  if (/\b(when|what (year|date|day|month|century|decade|time)|which (year|century|decade))\b/.test(q)) return 'time';
  if (/\b(who|whom|whose)\b/.test(q)) return 'name';
  return 'any';
}

const MONTHS = /\b(january|february|march|april|may|june|july|august|september|october|november|december|century|decade|spring|summer|autumn|winter)\b/i;
const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half)\b/i;

function answerTypeFits(expected: AnswerType, sentence: string, queryTerms: string[]): boolean {
  if (expected === 'any') return false;
  if (expected === 'time') return /\b(1\d{3}|20\d{2})s?\b/.test(sentence) || MONTHS.test(sentence);
  if (expected === 'number') return /\d/.test(sentence.replace(/\b(1\d{3}|20\d{2})\b/g, '')) || NUMBER_WORDS.test(sentence);
  // A name the question does not already contain (not the sentence's first word, which is capitalised anyway).
  const asked = new Set(queryTerms);
  return sentence
    .split(/\s+/)
    .slice(1)
    .some((w) => /^\p{Lu}\p{Ll}+/u.test(w) && !asked.has(stemmer(w.toLowerCase().replace(/[^\p{L}]/gu, ''))));
}

/**
 * Quotes first, each marked with the number of its source, then the sources: “…” [1] “…” [2]  Sources: [1] a.pdf,
 * page 4; [2] b.pdf, page 1. Quotes of one page are joined in document order. At most 80 words of quotation.
 */
function render(chosen: Candidate[]): string {
  const groups = new Map<string, Candidate[]>();
  for (const c of chosen) {
    const key = `${c.passage.filename}\u0000${c.passage.page}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let budget = MAX_ANSWER_WORDS;
  const quotes: string[] = [];
  const sources: string[] = [];
  for (const group of groups.values()) {
    if (budget <= 0) break;
    group.sort((a, b) => a.rank - b.rank || a.position - b.position);
    const quote = limitWords(group.map((c) => c.text).join(' '), budget);
    budget -= countWords(quote);
    const n = sources.length + 1;
    quotes.push(`“${quote}” [${n}]`);
    sources.push(`[${n}] ${group[0].passage.filename}, page ${group[0].passage.page}`);
  }
  return `${quotes.join(' ')}\n\nSources: ${sources.join('; ')}`;
}

/**
 * The sentence itself when it fits in `maxWords`, else the run of `maxWords` words holding most of the question's
 * terms, marked with ellipses where it was cut.
 */
function fitted(candidate: Candidate, maxWords: number, queryTerms: Set<string>): Candidate {
  if (candidate.words <= maxWords) return candidate;
  const words = candidate.text.split(/\s+/);
  const hit = words.map((w) => (queryTerms.has(stemmer(w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''))) ? 1 : 0));
  let best = 0;
  let bestCount = -1;
  for (let start = 0; start + maxWords <= words.length; start++) {
    let count = 0;
    for (let i = start; i < start + maxWords; i++) count += hit[i];
    if (count > bestCount) {
      bestCount = count;
      best = start;
    }
  }
  // Centre the matches: answers sit next to the words the question shares with them, on either side.
  const matched = hit.map((h, i) => (h ? i : -1)).filter((i) => i >= best && i < best + maxWords);
  if (matched.length > 0) {
    const centre = Math.round((matched[0] + matched[matched.length - 1]) / 2);
    best = Math.max(0, Math.min(words.length - maxWords, centre - Math.floor(maxWords / 2)));
  }
  const text = `${best > 0 ? '… ' : ''}${words.slice(best, best + maxWords).join(' ')}${best + maxWords < words.length ? ' …' : ''}`;
  return { ...candidate, text, words: maxWords };
}

function limitWords(text: string, max: number): string {
  const words = text.split(/\s+/);
  return words.length <= max ? text : `${words.slice(0, max).join(' ')}…`;
}
