/**
 * `doc-chat/adapters/financial-statements`: financial-statement knowledge as a plug-in of the ask flow (a QueryPlanner)
 * and of the extractive answerer (an AnswerSkill).
 */
export { asksForFigure, FINANCIAL_STATEMENTS, financialAnswerSkill, financialQueryPlanner } from './plugin.js';
export { computedFigureAnswer, formatFigure } from './computed-figure.js';
export { computedFigureRequest, lineItemSearches, type FigureRequest } from './financial-metrics.js';
export { lexicalQuery, lineItemQuery } from './query-wording.js';
