/**
 * The task module of the pool's threads (pool-thread.ts loads its default export): the extractive answerer is built once per thread and
 * answers every task sent to it. Plain data in and out; nothing here touches the request thread's state.
 */
import { workerData } from 'node:worker_threads';
import { createExtractiveAnswerer } from '../answer-plugins/index.js';
import { runPoolTask, type PoolResult, type PoolTask } from './pool-task.js';

const answerer = createExtractiveAnswerer({ plugins: (workerData as { plugins?: string[] } | undefined)?.plugins });

export default function answerTask(task: PoolTask): Promise<PoolResult> {
  return runPoolTask(task, answerer);
}
