import type { Answer, ContextPassage } from '../../core/index.js';

/** What each form a company files with its securities regulator is, as a reader would say it. */
const FORMS: Record<string, string> = {
  '10-K': 'An annual report', '10-Q': 'A quarterly report', '8-K': 'A current report', '20-F': 'An annual report', '6-K': 'A report',
};

/** The cover's top: the commission's name in capitals, first, then the form (a release mentions "our Form 10-K"). */
const COVER_FORM = /^[\s\S]{0,100}?\bSECURITIES\s+AND\s+EXCHANGE\s+COMMISSION\b[\s\S]*?\b(?:FORM|Form)\s+(10-K|10-Q|8-K|20-F|6-K)\b/;
const PERIOD = /\bfor\s+the\s+(fiscal\s+year|quarterly\s+period|year)\s+ended:?\s+(\p{L}+\s+\d{1,2},?\s+\d{4})/iu;
const REPORT_DATE = /\bdate\s+of\s+report\b[^:]*:\s*(\p{L}+\s+\d{1,2},?\s+\d{4})/iu;
const EXACT_NAME = /\(exact name of (?:the )?registrant/i;
const FILE_NUMBER = /\bcommission file (?:number|no\.?):?\s*[\d-]+\s*/i;
/** A name in capitals ending on a company's word ("MICROSOFT CORPORATION", "3M COMPANY", "AMCOR PLC"). */
const CAPITALS_NAME = /^((?:[\p{Lu}\d&.,'-]+\s+){0,5}(?:CORPORATION|INCORPORATED|COMPANY|INC\.?|CO\.|PLC|LTD\.?|LIMITED|GROUP|HOLDINGS|N\.V\.|S\.A\.|AG|SE))(?=[\s,(]|$)/u;

/** How far into the first passage the cover names its form. */
const COVER_TOP_CHARS = 400;

/** A name longer than this is a run of the cover's text, not the company's. */
const MAX_NAME_WORDS = 8;

/**
 * A filing's part of an overview ("What documents do I have?"), from its cover page: which form, whose, for what
 * period ("An annual report on Form 10-K of NIKE, Inc. for the fiscal year ended May 31, 2018."). The cover's own
 * sentences are check boxes and addresses, which is what the overview's lead and central sentences would quote.
 * Undefined for a document whose opening passages do not name such a form and a period or registrant.
 */
export function filingOverview(passages: ContextPassage[]): Answer | undefined {
  // The cover names the commission and its form at the top of the first page; a release that mentions "our annual
  // report on Form 10-K" is no filing.
  const formAt = passages[0];
  const form = formAt && COVER_FORM.exec(formAt.text.slice(0, COVER_TOP_CHARS))?.[1].toUpperCase();
  if (!form) return undefined;
  const period = firstFound(passages, (p) => PERIOD.exec(p.text) ?? undefined);
  const dated = period ? undefined : firstFound(passages, (p) => REPORT_DATE.exec(p.text)?.[1]);
  // The name above "(Exact name of registrant …)", else the one in capitals after the commission file number.
  const exactAt = passages.find((p) => EXACT_NAME.test(p.text));
  const named = exactAt ? { at: exactAt, value: registrant(passages, exactAt) } : firstFound(passages, (p) => nameAfterFileNumber(p.text));
  const name = named?.value;
  if (!period && !dated && !name) return undefined;
  const oneLine = (words: string) => words.replace(/\s+/g, ' ');
  const when = period ? ` for the ${oneLine(period.value[1]).toLowerCase()} ended ${oneLine(period.value[2])}` : dated ? `, dated ${oneLine(dated.value)}` : '';
  const said = `${FORMS[form]} on Form ${form}${name ? ` of ${name}` : ''}${when}`;
  const text = said.endsWith('.') ? said : `${said}.`;
  const used = [formAt, (period ?? dated)?.at, name ? named?.at : undefined].filter((p): p is ContextPassage => p !== undefined);
  return { text, usedRefs: [...new Set(used.map((p) => p.ref))] };
}

/** The first passage for which `read` finds something, and what it found. */
function firstFound<T>(passages: ContextPassage[], read: (passage: ContextPassage) => T | undefined): { at: ContextPassage; value: T } | undefined {
  for (const at of passages) {
    const value = read(at);
    if (value !== undefined) return { at, value };
  }
  return undefined;
}

/**
 * The registrant's name, printed just above "(Exact name of registrant as specified in its charter)": on that line
 * before it, after the commission file number the cover prints first, else on the line above (lines a passage carries
 * over from the one before, its page's title first, are not: the line above is then the previous passage's last).
 */
function registrant(passages: ContextPassage[], at: ContextPassage): string | undefined {
  const lines = at.text.split('\n');
  const i = lines.findIndex((line) => EXACT_NAME.test(line));
  const before = afterFileNumber(lines[i].slice(0, lines[i].search(EXACT_NAME))).trim();
  // Lines the passage carries over from the one before (its page's title, a heading) are not the line above.
  const earlier = passages[passages.indexOf(at) - 1]?.text ?? '';
  const above = lines.slice(1, i).filter((line) => line.trim() !== '' && !earlier.includes(line));
  const previous = above.length > 0 ? above.at(-1) : earlier.split('\n').filter((line) => line.trim() !== '').at(-1);
  // A cover's rule ("____") may stand before the name; a space before its comma or full stop is the text layer's.
  const name = (before || (previous && afterFileNumber(previous)) || '').replace(/_{2,}/g, ' ').replace(/\s+([.,])/g, '$1').trim();
  const words = name.split(/\s+/).length;
  return name && words <= MAX_NAME_WORDS && /\p{Lu}/u.test(name) ? name : undefined;
}

/**
 * A cover without "(Exact name of registrant …)" may print the name in capitals right after the file number
 * ("Commission File Number 001-37845 MICROSOFT CORPORATION WASHINGTON …", "… 1-3285 3M COMPANY State of …").
 */
function nameAfterFileNumber(text: string): string | undefined {
  const at = FILE_NUMBER.exec(text);
  return at ? CAPITALS_NAME.exec(text.slice(at.index + at[0].length))?.[1] : undefined;
}

/** What follows the commission file number on a line that prints one, else the line. */
function afterFileNumber(line: string): string {
  const at = FILE_NUMBER.exec(line);
  return at ? line.slice(at.index + at[0].length) : line;
}
