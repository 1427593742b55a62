import type { GroundedAnswer, GroundedAnswerer, GroundedQuestion } from '../../core/ports/grounded-answerer.js';
import type { Answer, AnswerRequest, Llm } from '../../core/ports/llm.js';
import type { ChunkHit } from '../../core/ports/vector-index.js';
import { rerank } from '../../core/rag/rerank.js';
import type { RetrievalSettings } from '../../core/use-cases/retrieve-and-answer.js';

/**
 * One unit of a question's CPU work, as plain data (it crosses to a worker thread by structured clone): the answer
 * from the packed passages, the re-ranking of a lexical index's hits, or a whole question (retrieval from the
 * thread's own read-only index connection, then the answer).
 */
export type PoolTask =
  | { kind: 'answer'; request: AnswerRequest }
  | { kind: 'rerank'; query: string; hits: ChunkHit[]; documentPrior?: ReadonlyMap<string, number> }
  | { kind: 'question'; question: GroundedQuestion; settings: RetrievalSettings };

/**
 * What a task gives back: the answer, the hits' new order as their indexes (cheaper to send back than the hits), or a
 * question's answer with its passages and how long each of its index searches took (for the service's metrics).
 */
export type PoolResult = Answer | number[] | AnsweredQuestion;

export interface AnsweredQuestion extends GroundedAnswer {
  /** Seconds of each index search the question made. */
  searchSeconds: number[];
}

/** What every thread is started with (workerData). */
export interface AnswerWorkerData {
  plugins?: readonly string[];
  /** The SQLite database of the lexical index, for 'question' tasks. */
  sqliteFile?: string;
}

/**
 * Runs one task with this thread's answerer; the same code whether in a worker thread or (tests) inline.
 * `grounded` builds the retrieval for 'question' tasks (absent: they fail).
 */
export async function runPoolTask(task: PoolTask, answerer: Llm, grounded?: (settings: RetrievalSettings, searchSeconds: number[]) => GroundedAnswerer): Promise<PoolResult> {
  if (task.kind === 'answer') return answerer.answer(task.request);
  if (task.kind === 'question') {
    if (!grounded) throw new Error('This answer pool has no index to search (no sqliteFile): it cannot answer whole questions');
    const searchSeconds: number[] = [];
    return { ...(await grounded(task.settings, searchSeconds).answer(task.question)), searchSeconds };
  }
  const position = new Map(task.hits.map((hit, i) => [hit, i]));
  return rerank(task.query, task.hits, undefined, task.documentPrior).map((hit) => position.get(hit)!);
}
