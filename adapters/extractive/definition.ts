/**
 * A question asking what something is ("What is Deltenna?", "How does the company define ROIC?", "What does ROIC
 * mean?") is answered by the sentence that defines it ("we acquired Deltenna, a wireless infrastructure company …",
 * "We define ROIC as …"), when one of the best-ranked sentences does, rather than by one that only names it. English
 * wording, like the rest of the sentence ranking's cues; domain-neutral.
 */
const ASKS_WHAT_IT_IS = [
  /^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$/i,
  /\bhow\s+(?:does|do|did|is|are)\s+(?:.+?\s+)?defin(?:e|ed)\s+(?:the\s+)?(.+?)\s*\??\s*$/i,
  /^\s*what\s+(?:does|do)\s+(?:the\s+)?(.+?)\s+(?:mean|stand for|refer to)\s*\??\s*$/i,
];
/**
 * A thing asked for with a figure's words, an operation's or a period is a figure's question, not a definition's
 * (wider than answer-support.ts's ASKS_A_FIGURE, which decides only whether a subject's words are read as phrases).
 */
const FIGURE_OR_OPERATION = /\b(?:19|20)\d\d\b|\d|\b(?:amount|value|total|number|percentage|rate|change|average|how much|how many)\b/i;
/** How far down the ranking a defining sentence is looked for. */
const LOOKED_AT = 8;

/** The term a question asks the meaning of, or undefined. */
export function termAsked(question: string): string | undefined {
  if (FIGURE_OR_OPERATION.test(question)) return undefined;
  for (const pattern of ASKS_WHAT_IT_IS) {
    const term = pattern.exec(question)?.[1]?.trim();
    if (term && term.split(/\s+/).length <= 5) return term;
  }
  return undefined;
}

/** Whether a sentence defines the term: "X is/means …", "X, a …", "define X as …". */
export function defines(sentence: string, term: string): boolean {
  const t = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(
    String.raw`\b${t}(?:\s*\([^)]*\))?,?\s+(?:is|are|was|were|refers?\s+to|means|represents|stands\s+for)\b|\b${t},\s+(?:an?|the)\s|\bdefin(?:e|es|ed)\s+${t}\s+as\b|\b${t}\s+(?:is|are)\s+defined\s+as\b`,
    'i',
  ).test(sentence);
}

/** The ranked units with the first of the best that defines the term asked moved to the front; else as ranked. */
export function definingFirst<T extends { kind: string; text: string }>(ranked: T[], question: string): T[] {
  const term = termAsked(question);
  if (!term) return ranked;
  const defining = ranked.slice(0, LOOKED_AT).find((c) => c.kind === 'sentence' && defines(c.text, term));
  return defining && defining !== ranked[0] ? [defining, ...ranked.filter((c) => c !== defining)] : ranked;
}
