/**
 * A question in the words the answer reads (English wording). plainQuestion: one space between words, contractions
 * written out ("What's" → "What is": the figure questions' patterns name "what is"), "growth rate" as the percentage
 * change it is, and without the words that point at the documents themselves ("According to the table, what was X?",
 * "What was X in the report?" ask what "What was X?" asks: those words name no row and no subject, but they opened
 * the question, and "report" or "table" weighed as subject words a passage lacked). ownQuestion: without a preamble.
 */
const DOCUMENT = String.raw`(?:the|this|these|your|my|our)\s+(?:(?:above|following|attached|given|annual|financial|uploaded)\s+)?(?:tables?|reports?|documents?|filings?|statements?|pages?|passages?|texts?|data|figures|information|files?)`;
const OPENING = new RegExp(String.raw`^\s*(?:according to|based on|from|as per|per|looking at|referring to|in)\s+${DOCUMENT}\s*,\s*`, 'i');
const CLOSING = new RegExp(String.raw`\s+(?:according to|based on|as per|in|from|of)\s+${DOCUMENT}\s*(\?)?\s*$`, 'i');
/** A question about the document itself ("Which years are shown in the table?"): its reference to it is the subject. */
const ABOUT_THE_DOCUMENT = /\b(?:show|shows|shown|represent|represents|represented|present|presents|presented|list|lists|listed|contain|contains|include|includes|included|provided|disclosed|covered|reported)\b/i;
/** "The growth rate of X" is its percentage change ("rate" names no row of X). */
const GROWTH_RATE = /\b(?:growth rate|rate of (?:growth|change)) (?:of|in)\b/gi;
const CONTRACTED_IS = /\b(what|who|where|when|how|which|that|it)['’]s\b/gi;
const CONTRACTED_ARE = /\b(what|who|where|when|how|which|they|we|you)['’]re\b/gi;

export function plainQuestion(question: string): string {
  const written = question.replace(/\s+/g, ' ').trim().replace(CONTRACTED_IS, '$1 is').replace(CONTRACTED_ARE, '$1 are').replace(GROWTH_RATE, 'percentage change in');
  if (ABOUT_THE_DOCUMENT.test(written)) return written;
  const bare = written.replace(OPENING, '').replace(CLOSING, (_, mark = '') => mark);
  // The question's first word, once an opening is gone, opens it as a sentence does.
  return bare === written ? written : bare.charAt(0).toUpperCase() + bare.slice(1);
}

/**
 * The question itself, without a preamble set before it ("We need to calculate a metric … Please answer the following
 * question: what is …?"): the preamble's words name no row.
 */
export function ownQuestion(question: string): string {
  return /[:.]\s+((?:what|how|which|who|when|where|why|in|for|as of|at)\b[^:.]*\?)\s*$/i.exec(question)?.[1] ?? question;
}
