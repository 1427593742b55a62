import { STOPWORDS, wordTokens, type ContextPassage } from '../../core/index.js';

/** Parts of a compound: shorter ones ("e mail", "a round") join too many pairs by chance. */
const MIN_PART = 3;

/**
 * The question with its compounds and acronyms written as the passages write them: "Linn sequencer" asked of a
 * brochure that writes "LinnSequencer" (and never "Linn sequencer"), "website" of a text that writes "web site" only,
 * "health care" of one that writes "healthcare", "CEO" of a filing that writes "Chief Executive Officer" only.
 * Sentences are matched word by word, so a word written otherwise than in the question matched none of its words.
 * Only forms the passages hold, and the question's own form they do not. A word run into a figure is set apart.
 */
export function asWrittenInPassages(question: string, contexts: readonly ContextPassage[]): string {
  if (contexts.length === 0) return question;
  // A word run into the figure after it ("less than15,000"): two words.
  question = question.replace(/\b(\p{Ll}{2,})(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{4,})\b/gu, '$1 $2');
  const text = contexts.map((c) => wordTokens(c.text).join(' ')).join(' \n ');
  const words = new Set(text.split(' '));
  const holds = (phrase: string) => ` ${text} `.includes(` ${phrase} `);
  // Two words the passages write as one (pairs overlap: "the Linn sequencer" tries "the Linn", then "Linn sequencer").
  let rewritten = '';
  let from = 0;
  const found = [...question.matchAll(/\p{L}+/gu)];
  for (let i = 0; i + 1 < found.length; i++) {
    const [first, second] = [found[i], found[i + 1]];
    const gap = question.slice(first.index + first[0].length, second.index);
    const [a, b] = [first[0].toLowerCase(), second[0].toLowerCase()];
    if (!/^[ -]$/.test(gap) || a.length < MIN_PART || b.length < MIN_PART || STOPWORDS.has(a) || STOPWORDS.has(b)) continue;
    if (!words.has(a + b) || holds(`${a} ${b}`)) continue;
    rewritten += question.slice(from, first.index) + first[0] + second[0];
    from = second.index + second[0].length;
    i++;
  }
  rewritten += question.slice(from);
  // One word the passages write as two.
  rewritten = rewritten.replace(/\p{L}+/gu, (word) => {
    const w = word.toLowerCase();
    if (w.length < 2 * MIN_PART || words.has(w)) return word;
    for (let cut = MIN_PART; cut <= w.length - MIN_PART; cut++) {
      const [a, b] = [w.slice(0, cut), w.slice(cut)];
      if (!STOPWORDS.has(a) && !STOPWORDS.has(b) && holds(`${a} ${b}`)) return `${word.slice(0, cut)} ${word.slice(cut)}`;
    }
    return word;
  });
  // An acronym the passages write out only.
  return rewritten.replace(/\b\p{Lu}{3,5}\b/gu, (acronym) => (words.has(acronym.toLowerCase()) ? acronym : (writtenOut(acronym, contexts) ?? acronym)));
}

/** Words an acronym's letters skip ("Securities and Exchange Commission": SEC). */
const SKIPPED = new Set(['of', 'and', 'for', 'the', '&']);

/**
 * The words the passages write an acronym out as, most often: a run of capitalised words whose initials spell it,
 * function words between them skipped ("Chief Executive Officer" for CEO). From four letters on, as a table's label
 * writes it, only the first word capitalised and a function word one of the letters ("Cost of goods sold" for COGS).
 * Undefined when none does.
 */
function writtenOut(acronym: string, contexts: readonly ContextPassage[]): string | undefined {
  const counts = new Map<string, number>();
  const flags = acronym.length >= 4 ? 'iu' : 'u';
  const initials = [...acronym].map((letter, k) => new RegExp(`^${letter}\\p{Ll}`, k === 0 ? 'u' : flags));
  for (const { text } of contexts) {
    const tokens = text.split(/\s+/);
    for (let i = 0; i < tokens.length; i++) {
      let j = i;
      let k = 0;
      while (j < tokens.length && k < acronym.length) {
        if (initials[k].test(tokens[j]) && (k > 0 || !SKIPPED.has(tokens[j].toLowerCase()))) (j++, k++);
        else if (k > 0 && SKIPPED.has(tokens[j].toLowerCase())) j++;
        else break;
      }
      if (k < acronym.length) continue;
      const words = tokens.slice(i, j).join(' ').replace(/[^\p{L}\p{N}]+$/u, '');
      counts.set(words, (counts.get(words) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
