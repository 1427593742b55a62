/**
 * The answer pool's real worker (adapters/answer-pool/answer-worker.ts), with two ways to misbehave chosen by the
 * question, for the tests of what the pool does then: "CRASH THREAD" ends the worker thread mid-task (as a native
 * crash or an out-of-memory kill would), "SPIN <ms>" holds the thread busy for that long before answering. And
 * "REPORT NICE" answers the thread's own nice value (Linux), for the test of the threads' priority.
 */
import os from 'node:os';
import answerTask from '../../adapters/answer-pool/answer-worker.js';
import type { PoolResult, PoolTask } from '../../adapters/answer-pool/pool-task.js';
import { currentThreadId } from '../../adapters/system/thread-priority.js';

export default function misbehavingAnswerTask(task: PoolTask): Promise<PoolResult> {
  const question = task.kind === 'answer' ? task.request.question : task.kind === 'question' ? task.question.question : task.query;
  if (question.includes('CRASH THREAD')) process.exit(1);
  if (question.includes('REPORT NICE')) {
    return Promise.resolve({ text: String(os.getPriority(currentThreadId())), usedRefs: [] });
  }
  const spin = /SPIN (\d+)/.exec(question);
  if (spin) {
    const until = Date.now() + Number(spin[1]);
    while (Date.now() < until); // busy on purpose: a thread stuck computing, not waiting
  }
  return answerTask(task);
}
