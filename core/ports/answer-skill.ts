import type { Answer, AnswerRequest, ContextPassage } from './llm.js';

/**
 * Knowledge of a kind of document that the embedded (extractive) answerer may call on, registered with it by
 * configuration (a plug-in under adapters/): a whole answer of its own (a figure computed from table rows),
 * or the wording of the table row a question asks for, which the answerer then quotes under its column header.
 */
export interface AnswerSkill {
  /** What it knows about, for logs (the plug-in's name). */
  readonly name: string;
  /** The kinds of document it serves: asked only when AnswerRequest.kinds holds one of them (or is not known). None: every document. */
  readonly kinds?: readonly string[];
  /** An answer built from the request's passages alone, or undefined to let the answerer answer as usual. */
  answer(request: AnswerRequest): Answer | undefined;
  /** When the question asks for a figure a table row prints: the row label's likely words, and the year whose column to lead with. */
  tableFigure(question: string): TableFigure | undefined;
  /**
   * One document's part of an overview when the skill knows its kind (a receipt: what was bought, its total and day),
   * from its opening passages; undefined to let the overview quote its lead and central sentences.
   */
  documentOverview?(passages: ContextPassage[]): Answer | undefined;
}

export interface TableFigure {
  /** Words the row's label may use (the question in the documents' wording). */
  wording: string;
  /** The column year to quote first, when the question names one. */
  year?: number;
}
