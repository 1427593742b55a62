import type { Source } from '../domain/model.js';
import type { TagFilter } from '../domain/tags.js';
import type { Answer, HistoryTurn } from './llm.js';

/** A question with what the request already knows: whose it is, its session, its history, which jobs may be cited. */
export interface GroundedQuestion {
  /** Who asks (an implementation that queues questions may use it to take users in turn). */
  userId: string;
  sessionId: string;
  question: string;
  history: HistoryTurn[];
  filters: TagFilter[];
  /** Ids of the jobs whose chunks may be cited. */
  visibleJobIds: string[];
  /**
   * The file name of each of those jobs, by id: a question may name a document by its file name's words only ("How much
   * did I pay at Ikea?" of receipt_ikea.jpg, whose text the OCR read as "TKEA"). None: only the documents' words count.
   */
  filenames?: Record<string, string>;
  /**
   * The kind of each document asked of (those the filters let through), by job id; null when it was never told (read
   * before kinds were). Knowledge of a kind of document (QueryPlanner, AnswerSkill) takes part only where these hold
   * its kind, or one is null. None: not known, every planner and skill may take part.
   */
  kinds?: Record<string, string | null>;
  /**
   * The unit labels of each of those jobs that has units (IngestJob.units), by id: a passage of a workbook is named
   * "Sheet Q3", not "page 3". None: passages are named by page.
   */
  units?: Record<string, string[]>;
}

export interface GroundedAnswer {
  answer: Answer;
  /** The sources shown with the answer (core/rag/context.ts toSources: excerpts of the passages it was given). */
  sources: Source[];
  /** A line for under the answer on what retrieval had to do without (e.g. the semantic search), if anything. */
  note?: string;
  /** The plug-ins that took part (query planners that changed a search, skills that shaped the answer), by name. */
  plugins?: string[];
}

/**
 * Retrieval and the answer of one question in a single call: the searches, re-ranking, fusion, packing and the
 * answerer, then the sources' excerpts (core/use-cases/retrieve-and-answer.ts does them on this thread). A port so that the whole CPU-heavy part
 * of a question can run elsewhere, e.g. on a worker thread with its own read-only connection to the index
 * (adapters/answer-pool), leaving the request thread only the reads and writes of the chat itself. Aborting `signal`
 * (the client left) may drop the work; the promise then rejects.
 */
export interface GroundedAnswerer {
  answer(question: GroundedQuestion, signal?: AbortSignal): Promise<GroundedAnswer>;
}
