import { stemmer } from 'stemmer';
import type { Answer, AnswerRequest, ContextPassage, Llm } from '../../core/ports/llm.js';
import { contentTokens, countWords, splitSentences, wordTokens } from '../../core/rag/text.js';

export const NOT_FOUND_TEXT = 'I could not find this in your documents.';
export const MAX_ANSWER_WORDS = 80;
const MAX_SENTENCES = 3;

interface Candidate {
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
    const queryTerms = stems(contentTokens(request.question));
    if (queryTerms.length === 0 || request.contexts.length === 0) return notFound();
    const candidates = request.contexts.flatMap((passage, rank) =>
      splitSentences(passage.text).map((text, position): Candidate => ({
        passage, rank, position, text, words: countWords(text), score: 0,
      })),
    );
    const idf = inverseFrequencies(candidates.map((c) => new Set(stems(wordTokens(c.text)))));
    const queryWeight = queryTerms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
    for (const candidate of candidates) candidate.score = scoreSentence(candidate, queryTerms, idf, queryWeight);

    const ranked = candidates.filter((c) => c.score > 0).sort((a, b) => b.score - a.score);
    const best = ranked[0];
    // Too weak a match is no answer: better to say so than to quote something unrelated.
    if (!best || best.score < 0.2) return notFound();

    const chosen: Candidate[] = [best];
    let words = best.words;
    for (const next of ranked.slice(1)) {
      if (chosen.length >= MAX_SENTENCES) break;
      if (next.score < best.score * 0.35) break;
      if (words + next.words > MAX_ANSWER_WORDS) continue;
      if (chosen.some((c) => c.text === next.text)) continue;
      chosen.push(next);
      words += next.words;
    }
    return { text: render(chosen), usedRefs: [...new Set(chosen.map((c) => c.passage.ref))] };
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

function scoreSentence(candidate: Candidate, queryTerms: string[], idf: Map<string, number>, queryWeight: number): number {
  const sentenceTerms = stems(wordTokens(candidate.text));
  const present = new Set(sentenceTerms);
  let matched = 0;
  for (const term of new Set(queryTerms)) if (present.has(term)) matched += idf.get(term) ?? 0;
  if (matched === 0 || queryWeight === 0) return 0;
  let coverage = matched / queryWeight;
  // Consecutive question terms found consecutively in the sentence ("Super Bowl 50") weigh extra.
  const bigrams = new Set<string>();
  for (let i = 0; i + 1 < sentenceTerms.length; i++) bigrams.add(`${sentenceTerms[i]} ${sentenceTerms[i + 1]}`);
  let phrase = 0;
  for (let i = 0; i + 1 < queryTerms.length; i++) if (bigrams.has(`${queryTerms[i]} ${queryTerms[i + 1]}`)) phrase += 1;
  coverage += 0.1 * Math.min(phrase, 3);
  // Very short fragments (headings, table cells) rarely answer anything.
  const lengthFactor = candidate.words < 5 ? 0.5 : 1;
  const rankPrior = 1 / (1 + 0.15 * candidate.rank);
  return coverage * lengthFactor * rankPrior;
}

/** Quotes grouped by source, each group in document order, ending with its file and page. Truncated to 80 words. */
function render(chosen: Candidate[]): string {
  const groups = new Map<string, Candidate[]>();
  for (const c of chosen) {
    const key = `${c.passage.filename}\u0000${c.passage.page}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let budget = MAX_ANSWER_WORDS;
  const parts: string[] = [];
  for (const group of groups.values()) {
    if (budget <= 0) break;
    group.sort((a, b) => a.rank - b.rank || a.position - b.position);
    const quote = limitWords(group.map((c) => c.text).join(' '), budget);
    budget -= countWords(quote);
    parts.push(`“${quote}” (${group[0].passage.filename}, page ${group[0].passage.page})`);
  }
  return parts.join(' ');
}

function limitWords(text: string, max: number): string {
  const words = text.split(/\s+/);
  return words.length <= max ? text : `${words.slice(0, max).join(' ')}…`;
}
