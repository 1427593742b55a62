/**
 * The pool's worker thread (piscina loads its default export): the extractive answerer is built once per thread and
 * answers every task sent to it. Plain data in and out; nothing here touches the request thread's state.
 */
import { ExtractiveAnswerer } from '../extractive/extractive-answerer.js';
import { runPoolTask, type PoolResult, type PoolTask } from './pool-task.js';

const answerer = new ExtractiveAnswerer();

export default function answerTask(task: PoolTask): Promise<PoolResult> {
  return runPoolTask(task, answerer);
}
