import { intentKinds, type AnswerSkill, type QueryPlanner, type TableFigure } from '../../core/index.js';
import { asks, FINANCIAL_INTENTS } from './financial-intents.js';
import { computedFigureAnswer } from './computed-figure.js';
import { filingOverview } from './filing-overview.js';
import { lineItemSearches } from './financial-metrics.js';
import { yearsNamed } from './fiscal-years.js';
import { lexicalQuery, lineItemQuery } from './query-wording.js';

/**
 * Financial-statement knowledge as a plug-in: for retrieval, questions in the filings' wording and a search per
 * statement line a computed figure needs (its row pinned among the passages); for the embedded answerer, figures
 * computed from those rows and the row a figure question names; in an overview, a filing by its cover (form, company,
 * period).
 */
export const FINANCIAL_STATEMENTS = 'financial-statements';

/** The kinds of document it serves (adapters/document-kinds): those its intents are asked of (filings, reports, releases). */
export const FINANCIAL_KINDS: readonly string[] = intentKinds(FINANCIAL_INTENTS);

export const financialQueryPlanner: QueryPlanner = {
  name: FINANCIAL_STATEMENTS,
  kinds: FINANCIAL_KINDS,
  lexicalQuery,
  pinnedSearches: lineItemSearches,
};

export const financialAnswerSkill: AnswerSkill = {
  name: FINANCIAL_STATEMENTS,
  kinds: FINANCIAL_KINDS,
  answer: computedFigureAnswer,
  tableFigure(question: string): TableFigure | undefined {
    if (!asksForFigure(question)) return undefined;
    const years = yearsNamed(question);
    return { wording: lineItemQuery(question), year: years.length > 0 ? Math.max(...years) : undefined };
  },
  documentOverview: filingOverview,
};

/**
 * A question asking for an amount, a count or a ratio rather than an explanation or a yes/no: the 'figure' intent
 * (financial-intents.ts), or "What was … in FY2018?", a what-question naming a year (fiscal years as questions write
 * them are fiscal-years.ts's to read).
 */
export function asksForFigure(question: string): boolean {
  if (asks(question, 'figure')) return true;
  const q = question.toLowerCase().trim();
  if (/^(is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(q)) return false;
  const what = /\bwhat (is|was|were|are)\b/.exec(q);
  return what !== null && yearsNamed(q.slice(what.index)).length > 0;
}
