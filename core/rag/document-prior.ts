import type { DocumentTerms } from '../ports/vector-index.js';
import { contentTokens, fileNameTerms, runTogetherInFileName, termKey } from './text.js';

/**
 * Which of a session's documents a question points to. With many documents in one session (a year of reports, a
 * shelf of articles), the words that tell documents apart (a company's name, a topic) are common inside the one
 * document they name, so chunk-level BM25 weighs them little, and a chunk of another document holding the question's
 * other words ("dividends paid", "CEO") wins. Counted over documents instead, those words stand out.
 *
 * A word counts for a document by the share of its chunks holding it, saturating (share / (share + halfShare)): a
 * company named in most of its own report's chunks and once in another's holds ~1 and ~0. Its weight is an inverse
 * document frequency over the documents, on those soft counts, so a word every document holds weighs nothing. The
 * prior of a document is the sum over the question's words, divided by the best document's.
 *
 * The constants were chosen on the benchmarks' tuning parts only, the held-out parts measured once after: see
 * docs/benchmarks.md ("Several documents in one session").
 */
export const DOCUMENT_PRIOR = {
  halfShare: 0.05,
  /** Documents at this share of the best prior or more are the question's focus: searched on their own as well. */
  focus: 0.9,
  /** The prior's weight beside the re-ranking features (core/rag/rerank.ts), which each lie in 0..1. */
  weight: 4,
} as const;

/**
 * Each document's prior in 0..1 (the best document 1), from how its chunks hold the question's words; undefined when
 * there are fewer than two documents or no word tells them apart, as then it would change nothing.
 */
export function documentPrior(documents: readonly DocumentTerms[]): Map<string, number> | undefined {
  if (documents.length < 2) return undefined;
  const n = documents.length;
  const scores = documents.map(() => 0);
  const words = Math.min(...documents.map((d) => d.holding.length));
  for (let w = 0; w < words; w++) {
    const held = documents.map((d) => {
      const share = d.chunks > 0 ? d.holding[w] / d.chunks : 0;
      return share / (share + DOCUMENT_PRIOR.halfShare);
    });
    const spread = held.reduce((sum, h) => sum + h, 0);
    if (spread === 0) continue;
    const weight = Math.log(1 + (n - spread + 0.5) / (spread + 0.5));
    held.forEach((h, i) => (scores[i] += weight * h));
  }
  const best = Math.max(...scores);
  if (!(best > 0) || scores.every((s) => s === best)) return undefined;
  return new Map(documents.map((d, i) => [d.jobId, scores[i] / best]));
}

/**
 * The prior of a follow-up (core/rag/follow-up.ts referredDocuments): the documents the answer before it quoted are the
 * ones named, at 1, the others at 0. "And when does it take effect?" asks of the notice quoted before, though "take
 * effect" is the words of another document. Undefined when that tells no document apart.
 */
export function referredPrior(documents: readonly DocumentTerms[], referred: readonly string[]): Map<string, number> | undefined {
  const held = new Set(referred.filter((jobId) => documents.some((d) => d.jobId === jobId)));
  if (held.size === 0 || held.size === documents.length) return undefined;
  return new Map(documents.map((d) => [d.jobId, held.has(d.jobId) ? 1 : 0]));
}

/** The documents the question is about (prior ≥ DOCUMENT_PRIOR.focus), best first. */
export function focusDocuments(prior: ReadonlyMap<string, number>): string[] {
  return [...prior].filter(([, p]) => p >= DOCUMENT_PRIOR.focus).sort((a, b) => b[1] - a[1]).map(([jobId]) => jobId);
}

/** A word of a question that the file names of some documents hold, not all: which documents' (in their order). */
export interface FileNameWord {
  /** As the question writes it (lower-cased), to count in the documents' text. */
  word: string;
  named: boolean[];
}

/** The question's words that some of the documents' file names hold but not all (a word every name holds tells none apart). */
export function fileNameWords(question: string, documents: readonly DocumentTerms[], filenames?: Readonly<Record<string, string>>): FileNameWord[] {
  if (!filenames) return [];
  const names = documents.map((d) => new Set(fileNameTerms(filenames[d.jobId] ?? '')));
  // "Huck Finn" names scanned-huckfinn-p22.pdf, whose words are split on punctuation only.
  const runTogether = documents.map((d) => new Set(runTogetherInFileName(question, filenames[d.jobId] ?? '')));
  const words = new Map(contentTokens(question).map((word) => [termKey(word), word] as const));
  return [...words]
    .map(([key, word]) => ({ word, named: names.map((name, i) => name.has(key) || runTogether[i].has(word)) }))
    .filter(({ named }) => named.some(Boolean) && !named.every(Boolean));
}

/**
 * The documents' counts with a column per file-name word: every chunk of a document it names holds it, none of
 * another's. For the words no document's text holds (the caller checks): a document named by its file name only ("the
 * Ikea receipt" of receipt_ikea.jpg, whose heading the OCR read as "TKEA"; flat-lease.pdf, whose text says "tenancy").
 */
export function withFileNameColumns(documents: readonly DocumentTerms[], words: readonly FileNameWord[]): DocumentTerms[] {
  return documents.map((d, i) => ({ ...d, holding: [...d.holding, ...words.map(({ named }) => (named[i] ? d.chunks : 0))] }));
}
