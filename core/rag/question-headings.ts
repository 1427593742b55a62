import { splitUnits } from './layout.js';
import { STOPWORDS, termKey, withoutPossessive, wordTokens } from './text.js';

/** The words that make a heading one a question can echo: "Who Must Apply", "Where To Apply", "What's New". */
const WH_WORDS = new Set(['who', 'whom', 'whose', 'what', 'when', 'where', 'why', 'how', 'which']);
/** Words a question may leave out or word otherwise and still ask what the heading says ("Where do I apply?"). */
const GLUE = new Set(['a', 'an', 'the', 'to', 'of', 'for', 'in', 'on', 'at', 'by', 'with', 'do', 'does', 'did', 'is', 'are', 'be', 'i', 'you', 'your', 'my', 'we', 'our']);

/**
 * Whether the question asks what a question-shaped heading says: the heading has a wh-word, and the question holds
 * every word of it (stemmed; articles, prepositions and auxiliaries aside), one of them a content word. "Who must apply
 * for a pass?" echoes "Who Must Apply"; a content-word search cannot see it when who and must are stopwords and
 * "apply" is on every page of a form's instructions. Topic headings ("Standard Fare") are left to search.
 */
export function echoesHeading(question: string, heading: string): boolean {
  const words = wordTokens(heading).map(withoutPossessive).filter((w) => !GLUE.has(w));
  if (!words.some((w) => WH_WORDS.has(w)) || words.every((w) => STOPWORDS.has(w))) return false;
  const asked = new Set(wordTokens(question).map(termKey));
  return words.every((w) => asked.has(termKey(w)));
}

/** The first heading of `text` (a chunk's, as core/rag/layout.ts splits it) that the question echoes. */
export function echoedHeading(question: string, text: string): string | undefined {
  // A question without a wh-word echoes no heading: its hits need not be split.
  if (!wordTokens(question).some((w) => WH_WORDS.has(withoutPossessive(w)))) return undefined;
  return splitUnits(text).find((unit) => unit.kind === 'heading' && echoesHeading(question, unit.text))?.text;
}
