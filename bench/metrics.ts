import { offeredAnswer } from '../adapters/extractive/absent-names.js';

/** SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces, diacritics folded. */
export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function firstWords(text: string, n: number): string {
  return text.split(/\s+/).slice(0, n).join(' ');
}

/**
 * What the answer says, without the apparatus around it: the closing "Sources: [1] file.pdf, page 3" list and the
 * [n] markers; nothing of an answer that says the documents do not hold one (what it shows as closest found is not
 * offered as an answer). File names and page numbers must not count as containing an answer ("Warsaw", "2").
 */
export function answerBody(answer: string): string {
  return offeredAnswer(answer).replace(/\n\s*Sources:[\s\S]*$/, '').replace(/\[\d+(?:\s*[,;]\s*\d+)*\]/g, ' ');
}

/** A gold answer inside the first 80 words of the answer's body, both normalised. */
export function contains(answer: string, golds: string[]): boolean {
  const hay = ` ${normalizeAnswer(firstWords(answerBody(answer), 80))} `;
  return golds.some((g) => {
    const needle = normalizeAnswer(g);
    return needle.length > 0 && hay.includes(` ${needle} `);
  });
}

/** Whether a source excerpt comes from the gold paragraph: they share a run of 8 words (or all of a shorter excerpt). */
export function excerptFromParagraph(excerpt: string, paragraph: string, run = 8): boolean {
  const e = normalizeAnswer(excerpt.replace(/…$/, '')).split(' ').filter(Boolean);
  const p = ` ${normalizeAnswer(paragraph)} `;
  if (e.length === 0) return false;
  if (e.length < run) return p.includes(` ${e.join(' ')} `);
  for (let i = 0; i + run <= e.length; i++) if (p.includes(` ${e.slice(i, i + run).join(' ')} `)) return true;
  return false;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** mulberry32: a tiny seeded PRNG, so the sampled questions are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}
