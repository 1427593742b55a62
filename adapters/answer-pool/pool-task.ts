import type { Answer, AnswerRequest, Llm } from '../../core/ports/llm.js';
import type { ChunkHit } from '../../core/ports/vector-index.js';
import { rerank } from '../../core/rag/rerank.js';

/**
 * One unit of a question's CPU work, as plain data (it crosses to a worker thread by structured clone): the answer
 * from the packed passages, or the re-ranking of a lexical index's hits.
 */
export type PoolTask =
  | { kind: 'answer'; request: AnswerRequest }
  | { kind: 'rerank'; query: string; hits: ChunkHit[] };

/** What a task gives back: the answer, or the hits' new order as their indexes (cheaper to send back than the hits). */
export type PoolResult = Answer | number[];

/** Runs one task with this thread's answerer; the same code whether in a worker thread or (tests) inline. */
export async function runPoolTask(task: PoolTask, answerer: Llm): Promise<PoolResult> {
  if (task.kind === 'answer') return answerer.answer(task.request);
  const position = new Map(task.hits.map((hit, i) => [hit, i]));
  return rerank(task.query, task.hits).map((hit) => position.get(hit)!);
}
