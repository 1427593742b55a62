/**
 * The words a lexical index should look for, from a question as users ask it of reports:
 * - fiscal years: "FY2018", "FY 2018", "FY18" are written "2018" in the filings' own tables (the column years);
 * - the words a statement uses for what analysts call otherwise: "capital expenditure" is "purchases of property,
 *   plant and equipment" in a cash-flow statement, "COGS" is "cost of sales" or "cost of revenue". The list holds the
 *   standard names of financial-statement lines and statements only (US GAAP captions), nothing about any one filing;
 * - officers: a filing writes "Chief Executive Officer", never "CEO".
 */
import { rewriteFiscalYears } from './fiscal-years.js';
import { STATEMENTS } from './statements.js';

/** Analyst terms for statement lines (regular expressions on the lower-cased question) and the lines' own wording. */
const LINE_ITEM_WORDING: [RegExp, string][] = [
  [/\bcapex\b|\bcapital expenditures?\b/, 'purchases property plant equipment capital expenditures'],
  [/\bpp&e\b|\bppne\b|\bpp and e\b|\bfixed assets?\b/, 'property plant equipment net'],
  [/\bcogs\b|\bcost of goods sold\b/, 'cost of sales cost of revenue cost of goods sold'],
  [/\bsg&a\b/, 'selling general administrative expenses'],
  [/\bd&a\b/, 'depreciation amortization'],
  [/\beps\b/, 'earnings per share'],
  [/\bebitda\b/, 'operating income depreciation amortization'],
  [/\b(revenue|revenues|top ?line)\b/, 'net sales revenue total net revenue'],
  [/\bnet income\b|\bnet profit\b|\bbottom ?line\b/, 'net income net earnings'],
  [/\bworking capital\b/, 'total current assets total current liabilities'],
  [/\bquick ratio\b/, 'cash equivalents receivables total current liabilities'],
  [/\b(dpo|days payable)\b/, 'accounts payable cost of sales inventories'],
  [/\b(dso|days sales outstanding)\b/, 'accounts receivable net sales'],
  [/\b(dio|days inventory)\b/, 'inventories cost of sales'],
  [/\bfree cash ?flows?\b|\bfcf\b/, 'net cash provided by operating activities purchases property equipment'],
  [/\b(total )?debt\b/, 'long-term debt borrowings notes'],
  [/\bdividends?\b/, 'dividends declared paid per share'],
  [/\boperating margin\b/, 'operating income net revenue'],
  [/\beffective tax rate\b/, 'effective tax rate provision for income taxes'],
  [/\binventor(y|ies)\b/, 'merchandise inventories'],
];

/** Officers as filings name them (signatures, certifications, "Executive Officers of the Registrant"). */
const OFFICER_WORDING: [RegExp, string][] = [
  [/\bceo\b/, 'chief executive officer'],
  [/\bcfo\b/, 'chief financial officer'],
  [/\bcoo\b/, 'chief operating officer'],
  [/\bcto\b/, 'chief technology officer'],
];

/** The question rewritten for a lexical (BM25) index: see the module comment. Synonym wording comes first. */
export function lexicalQuery(question: string): string {
  return rewrite(question, [...STATEMENT_WORDING, ...LINE_ITEM_WORDING, ...OFFICER_WORDING]);
}

/** The question with the wording of the statement lines it names, to match table rows (statement titles left out). */
export function lineItemQuery(question: string): string {
  return rewrite(question, LINE_ITEM_WORDING);
}

/** A statement the question names: its titles in filings. */
const STATEMENT_WORDING: [RegExp, string][] = STATEMENTS.map((s) => [s.asked, [s.title, s.otherTitles].filter(Boolean).join(' ')]);

function rewrite(question: string, table: [RegExp, string][]): string {
  const lower = question.toLowerCase();
  const wording = table.filter(([pattern]) => pattern.test(lower)).map(([, words]) => words);
  return [...wording, rewriteFiscalYears(lower, (year) => ` ${year} `)].join(' ').replace(/\s+/g, ' ').trim();
}
