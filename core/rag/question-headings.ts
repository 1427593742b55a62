import { splitUnits } from './layout.js';
import { fileNameTerms, STOPWORDS, termKey, termKeys, withoutPossessive, wordTokens } from './text.js';

/** The words that make a heading one a question can echo: "Who Must Apply", "Where To Apply", "What's New". */
const WH_WORDS = new Set(['who', 'whom', 'whose', 'what', 'when', 'where', 'why', 'how', 'which']);
/** Words a question may leave out or word otherwise and still ask what the heading says ("Where do I apply?"). */
const GLUE = new Set(['a', 'an', 'the', 'to', 'of', 'for', 'in', 'on', 'at', 'by', 'with', 'do', 'does', 'did', 'is', 'are', 'be', 'i', 'you', 'your', 'my', 'we', 'our']);

/**
 * Whether the question asks what a question-shaped heading says: the heading has a wh-word, and the question holds
 * every word of it (stemmed; articles, prepositions and auxiliaries aside), one of them a content word. "Who must apply
 * for a pass?" echoes "Who Must Apply"; a content-word search cannot see it when who and must are stopwords and
 * "apply" is on every page of a form's instructions. Topic headings ("Standard Fare") are namesTopicHeading's.
 */
export function echoesHeading(question: string, heading: string): boolean {
  const words = wordTokens(heading).map(withoutPossessive).filter((w) => !GLUE.has(w));
  if (!words.some((w) => WH_WORDS.has(w)) || words.every((w) => STOPWORDS.has(w))) return false;
  const asked = new Set(wordTokens(question).map(termKey));
  return words.every((w) => asked.has(termKey(w)));
}

/** The heading lines of `text` (a chunk's, as core/rag/layout.ts splits it), in order. */
export function headingLines(text: string): string[] {
  return splitUnits(text).flatMap((unit) => (unit.kind === 'heading' ? [unit.text] : []));
}

/**
 * The first heading of `text` that the question echoes. `headings` gives its heading lines, split on first use (a
 * caller asking both this and namesTopicHeading of a chunk splits it once).
 */
export function echoedHeading(question: string, text: string, headings = () => headingLines(text)): string | undefined {
  // A question without a wh-word echoes no heading: its hits need not be split.
  if (!wordTokens(question).some((w) => WH_WORDS.has(withoutPossessive(w)))) return undefined;
  return headings().find((heading) => echoesHeading(question, heading));
}

/** A topic heading names what its section is about in a few words ("Employees", "Legal Proceedings"). */
const MAX_TOPIC_WORDS = 4;
/** The question's words a topic heading may leave out ("many" of "How many employees …?"). */
const MAX_UNNAMED = 1;

/**
 * Whether a chunk's own section heading names the question's topic: a heading line of at most MAX_TOPIC_WORDS words
 * whose content words are all the question's, leaving out at most MAX_UNNAMED of them, its file name's words aside (a
 * document's title heads its first page and names every question about it). "How many employees does Nike have?" of
 * a report: the section "Employees" (page 7), not the exhibits' employment agreements, which write EMPLOYEE and NIKE
 * on every line; "What was Nike's employee stock compensation?" asks more than "Employees" says.
 */
export function namesTopicHeading(question: string, text: string, filename: string, headings = () => headingLines(text)): boolean {
  const named = new Set(fileNameTerms(filename));
  const asked = new Set(termKeys(question).filter((w) => !named.has(w)));
  // A heading of MAX_TOPIC_WORDS words cannot name a longer question's topic: its chunk need not be split.
  if (asked.size === 0 || asked.size > MAX_TOPIC_WORDS + MAX_UNNAMED) return false;
  return headings().some((heading) => {
    if (wordTokens(heading).length > MAX_TOPIC_WORDS) return false;
    const content = new Set(termKeys(heading));
    return content.size > 0 && [...content].every((w) => asked.has(w)) && asked.size - content.size <= MAX_UNNAMED;
  });
}
