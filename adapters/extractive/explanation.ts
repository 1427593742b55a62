import type { UnitKind } from '../../core/index.js';

/**
 * A question that asks why, how a figure is made, what drove it or what a term stands for. Its answer is said in
 * prose: a table row holds the question's words ("Adjusted EBITDA 482 483"), never its reason. English, like the
 * answer-type cues of the sentence ranking (expectedAnswerType).
 */
const EXPLANATION = new RegExp([
  String.raw`^\s*why\b`,
  String.raw`\bhow (?:is|are|was|were|does|do|did)\b.*\b(?:calculated|computed|determined|defined|define|measured|derived|estimated|recogni[sz]ed|accounted)\b`,
  String.raw`\bwhat (?:is|was|are|were) the (?:main |primary |principal )?(?:reasons?|rationale|causes?|drivers?|purpose|basis|implications?)\b`,
  String.raw`\bwhat (?:does|do|did)\b.*\b(?:represent|consist|comprise|mean|refer|exclude|include)s?\b`,
  String.raw`\b(?:driven|caused|attributable|due)\s+(?:by|to)\s*\??\s*$`,
  String.raw`\bwhat (?:is|are|was|were)\b.*\bexcluded\b`,
].join('|'), 'i');

export function asksForExplanation(question: string): boolean {
  return EXPLANATION.test(question);
}

/**
 * The ranked units with the best sentence first, the others in their order: for an explanation, prose leads and the
 * table rows that name the same thing follow it. The sentence must hold every question term the best unit holds
 * (`asked`: a unit's terms the question holds), so it speaks of the same thing; else the ranking stands.
 */
export function proseFirst<T extends { kind: UnitKind }>(ranked: T[], asked: (unit: T) => Set<string>): T[] {
  if (ranked.length === 0 || ranked[0].kind === 'sentence') return ranked;
  const named = asked(ranked[0]);
  const prose = ranked.find((c) => c.kind === 'sentence' && [...named].every((term) => asked(c).has(term)));
  return prose ? [prose, ...ranked.filter((c) => c !== prose)] : ranked;
}
