import type { ChatRole } from '../domain/model.js';

export interface ContextPassage {
  /** Short label the answer can cite, e.g. "[1]". */
  ref: string;
  filename: string;
  page: number;
  /** The unit's label when the document has no pages ("Sheet Q3"): it is named instead of the page. */
  unit?: string;
  text: string;
  score: number;
  /** The ref of the passage before it on its page whose table this one's opening rows continue (core/rag/chunking.ts). */
  continues?: string;
}

export interface HistoryTurn {
  role: ChatRole;
  content: string;
  /** Of an answer: the ids of the documents (ingest jobs) it quoted, when it quoted any. */
  cited?: string[];
}

export interface AnswerRequest {
  question: string;
  contexts: ContextPassage[];
  /** Recent turns, oldest first. */
  history: HistoryTurn[];
  /**
   * The question asks what the documents are about (core/rag/overview.ts): `contexts` are each document's opening
   * passages rather than search hits, and the answer should summarise them. A model may simply answer the question.
   */
  overview?: boolean;
  /**
   * The kinds of the documents the passages may come from (DocumentClassifier's names): knowledge of a kind of
   * document (AnswerSkill) takes part only when they hold its kind. None: not known, every skill may.
   */
  kinds?: string[];
}

export interface Answer {
  text: string;
  /** Refs of the contexts the answer used; empty when the documents did not contain it. */
  usedRefs: string[];
  /**
   * How the text cites the passages it used: ref → n where the text marks it "[n]" (passages of one page may share a
   * number). Absent, or a ref missing: the text cites it by no number.
   */
  markers?: Record<string, number>;
  /**
   * What the text quotes word for word from each passage it used (ref → the quoted sentences, joined), so that
   * passage's source shows, and the page marks, that part of it. Absent for a ref (a model's own words): its source shows the part of the
   * passage that best matches the question.
   */
  quotes?: Record<string, string>;
  /** The plug-ins whose knowledge of a kind of document shaped the answer (AnswerSkill.name), if any: for logs and tests. */
  skills?: string[];
}

export interface Llm {
  answer(request: AnswerRequest): Promise<Answer>;
  /**
   * The same answer, its text yielded in pieces as the model produces it; the generator returns the whole Answer
   * (its text is the pieces joined). Aborting `signal` cancels the model call, and the generator then throws.
   * Optional: without it the answer is computed whole and sent in sentences (core/rag/answer-stream.ts).
   */
  answerStream?(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined>;
  /**
   * Turns a follow-up ("and what about its size?") into a question that stands alone, for retrieval.
   * Optional: an answerer that cannot rewrite leaves it out and the question is used as asked.
   */
  rewriteQuestion?(question: string, history: HistoryTurn[]): Promise<string>;
}
