/**
 * The words a lexical index should look for, from a question as users ask it of reports:
 * - fiscal years: "FY2018", "FY 2018", "FY18" are written "2018" in the filings' own tables (the column years);
 * - the words a statement uses for what analysts call otherwise: "capital expenditure" is "purchases of property,
 *   plant and equipment" in a cash-flow statement, "COGS" is "cost of sales" or "cost of revenue". The list holds the
 *   standard names of financial-statement lines and statements only (US GAAP captions), nothing about any one filing;
 * - officers: a filing writes "Chief Executive Officer", never "CEO".
 * The words are the plug-in's intents (financial-intents.ts).
 */
import { rewordings } from './financial-intents.js';
import { rewriteFiscalYears } from './fiscal-years.js';

/** The question rewritten for a lexical (BM25) index: see the module comment. Synonym wording comes first. */
export function lexicalQuery(question: string): string {
  return rewrite(question, rewordings(question, ['statement', 'line-item', 'officer']));
}

/** The question with the wording of the statement lines it names, to match table rows (statement titles left out). */
export function lineItemQuery(question: string): string {
  return rewrite(question, rewordings(question, ['line-item']));
}

function rewrite(question: string, wording: string[]): string {
  return [...wording, rewriteFiscalYears(question.toLowerCase(), (year) => ` ${year} `)].join(' ').replace(/\s+/g, ' ').trim();
}
