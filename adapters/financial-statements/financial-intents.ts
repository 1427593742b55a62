/**
 * The financial-statement plug-in's question intents, as one table (core/rag/question-intents.ts): questions that ask
 * for a figure, and the words filings use for what a question names otherwise (the retrieval plan: the words a lexical
 * search looks for). US GAAP captions and statement titles only, nothing about any one filing; English.
 * - statement: a statement the question names ("balance sheet") → its titles in filings;
 * - line-item: an analyst's term ("capex", "COGS") → the statement line's own wording;
 * - officer: an officer's short title ("CEO") → how filings write it;
 * - figure: a question asking for an amount, a count or a ratio (the answer quotes the table row it names).
 */
import { intentsAsked, type QuestionIntent } from '../../core/index.js';
import { STATEMENTS } from './statements.js';

export type FinancialIntent = 'statement' | 'line-item' | 'officer' | 'figure';
/** The words a lexical search looks for instead (reword), or the table row a figure question names (row). */
export type FinancialPlan = { reword: string } | 'row';
export type FinancialAnswer = 'quote' | 'figure-row';

type Row = QuestionIntent<FinancialIntent, FinancialPlan, FinancialAnswer>;

const KINDS = ['financial-report'];

const reword = (intent: FinancialIntent, trigger: RegExp, words: string): Row =>
  ({ intent, language: 'en', kinds: KINDS, trigger, plan: { reword: words }, answer: intent === 'line-item' ? 'figure-row' : 'quote' });

export const FINANCIAL_INTENTS: readonly Row[] = [
  ...STATEMENTS.map((s) => reword('statement', s.asked, [s.title, s.otherTitles].filter(Boolean).join(' '))),
  reword('line-item', /\bcapex\b|\bcapital expenditures?\b/, 'purchases property plant equipment capital expenditures'),
  reword('line-item', /\bpp&e\b|\bppne\b|\bpp and e\b|\bfixed assets?\b/, 'property plant equipment net'),
  reword('line-item', /\bcogs\b|\bcost of goods sold\b/, 'cost of sales cost of revenue cost of goods sold'),
  reword('line-item', /\bsg&a\b/, 'selling general administrative expenses'),
  reword('line-item', /\bd&a\b/, 'depreciation amortization'),
  reword('line-item', /\beps\b/, 'earnings per share'),
  reword('line-item', /\bebitda\b/, 'operating income depreciation amortization'),
  reword('line-item', /\b(revenue|revenues|top ?line)\b/, 'net sales revenue total net revenue'),
  reword('line-item', /\bnet income\b|\bnet profit\b|\bbottom ?line\b/, 'net income net earnings'),
  reword('line-item', /\bworking capital\b/, 'total current assets total current liabilities'),
  reword('line-item', /\bquick ratio\b/, 'cash equivalents receivables total current liabilities'),
  reword('line-item', /\b(dpo|days payable)\b/, 'accounts payable cost of sales inventories'),
  reword('line-item', /\b(dso|days sales outstanding)\b/, 'accounts receivable net sales'),
  reword('line-item', /\b(dio|days inventory)\b/, 'inventories cost of sales'),
  reword('line-item', /\bfree cash ?flows?\b|\bfcf\b/, 'net cash provided by operating activities purchases property equipment'),
  reword('line-item', /\b(total )?debt\b/, 'long-term debt borrowings notes'),
  reword('line-item', /\bdividends?\b/, 'dividends declared paid per share'),
  reword('line-item', /\boperating margin\b/, 'operating income net revenue'),
  reword('line-item', /\beffective tax rate\b/, 'effective tax rate provision for income taxes'),
  reword('line-item', /\binventor(y|ies)\b/, 'merchandise inventories'),
  reword('officer', /\bceo\b/, 'chief executive officer'),
  reword('officer', /\bcfo\b/, 'chief financial officer'),
  reword('officer', /\bcoo\b/, 'chief operating officer'),
  reword('officer', /\bcto\b/, 'chief technology officer'),
  // An amount, a count or a ratio rather than an explanation or a yes/no ("What was … in FY2018?" too: see asksForFigure).
  {
    intent: 'figure', language: 'en', kinds: KINDS, plan: 'row', answer: 'figure-row',
    trigger: /\bhow (much|many)\b|\bin (usd|us\$|\$)?\s*(millions|billions|thousands)\b|\b(amount|total|ratio|margin|turnover|balance)\b/,
    unless: /^\s*(is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/,
  },
];

/** The search words of the rewording intents (of these) the question holds, in the table's order. */
export function rewordings(question: string, intents: readonly FinancialIntent[]): string[] {
  return intentsAsked(question, FINANCIAL_INTENTS).flatMap((row) => (intents.includes(row.intent) && typeof row.plan === 'object' ? [row.plan.reword] : []));
}

/** Whether the question holds one of these intents. */
export function asks(question: string, intent: FinancialIntent): boolean {
  return intentsAsked(question, FINANCIAL_INTENTS).some((row) => row.intent === intent);
}
