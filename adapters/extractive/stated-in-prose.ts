import { contentTokens, fileNameTerms, MONTH_NAME, splitUnits, termKey, type AnswerRequest } from '../../core/index.js';
import { isFrameWord } from './answer-support.js';

/**
 * Whether a sentence of the row's page states the figure a look-up asks better than the table row found: it holds
 * every word of the question the row's label, header and title hold, and a word of the question they lack ("What was
 * the federal state income tax in 2019?": the row "State income tax (benefit)" is one part of it, the sentence "Federal
 * and state income taxes of $36.5 million … were paid in 2019" is the one asked of), and an amount; of several, the
 * one holding most of the question. Then the sentence answers, not the row.
 * `row`: the row's label with the words around it that name it (header, title, column); `page`: the row's page, whose
 * sentences are looked at. Returns that sentence.
 */
export function statedInProse(request: AnswerRequest, question: string, row: string, page: { filename: string; page: number }): string | undefined {
  // A word of a document's file name ("Boeing" of BOEING_2018_10K.pdf) is what all its sentences are about, the row's too.
  const filed = new Set(fileNameTerms(page.filename));
  const asked = new Set(contentTokens(question).filter((t) => !isFrameWord(t)).map(termKey).filter((k) => !filed.has(k)));
  const named = new Set(contentTokens(row).map(termKey).filter((k) => asked.has(k)));
  if (named.size === 0 || named.size === asked.size) return undefined;
  let best: { text: string; held: number } | undefined;
  // The row's own page: its prose qualifies its table; elsewhere a document may say the same words of another figure.
  for (const passage of request.contexts.filter((p) => p.filename === page.filename && p.page === page.page)) {
    for (const unit of splitUnits(passage.text)) {
      if (unit.kind !== 'sentence' || !FIGURE.test(unit.text.replace(DATES, ' '))) continue;
      const held = new Set(contentTokens(unit.text).map(termKey).filter((k) => asked.has(k)));
      if ([...named].every((k) => held.has(k)) && held.size > named.size && held.size > (best?.held ?? 0)) best = { text: unit.text, held: held.size };
    }
  }
  return best?.text;
}
/** An amount: digits with a separator, a decimal, a currency sign or a percent, or three digits or more (not a year). */
const FIGURE = /[$€£¥]\s?\d|\d[.,]\d|\d\s?%|\b\d{3,}\b/;
/** Years and days of a date ("August 31", "31 December 2019"), which are no amount. */
const DATES = new RegExp(String.raw`\b(?:19|20)\d\d\b|\b\d{1,2}(?:st|nd|rd|th)?\s+${MONTH_NAME}(?=\s|,|$)|\b${MONTH_NAME}\s+\d{1,2}\b`, 'gi');
