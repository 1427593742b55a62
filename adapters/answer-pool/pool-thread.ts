/**
 * A thread of the answer pool (started by thread-pool.ts): loads the task module, then runs the tasks posted to it one
 * after another. A task is claimed in the shared flags before it starts, so the pool can still take back a task that
 * waits here (cancelled, or moved to an idle thread) without a round trip through this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { lowerThreadPriority } from '../system/thread-priority.js';
import { CLAIM, type StagedTask, type ThreadAnswer, type ThreadReply, type ThreadStartData } from './thread-protocol.js';

const { pool } = workerData as { pool: ThreadStartData };
const flags = new Int32Array(pool.flags);
// Below the request thread: on a busy machine the cheap requests it serves go first, answers take what it leaves.
if (pool.nice) lowerThreadPriority(pool.nice);
const run = (await import(pathToFileURL(pool.taskModule).href)).default as (task: unknown) => unknown;

const waiting: StagedTask[] = [];
let busy = false;

async function drain(): Promise<void> {
  busy = true;
  while (waiting.length > 0) {
    const { post, slot, task } = waiting.shift()!;
    if (Atomics.compareExchange(flags, slot, CLAIM.waiting, CLAIM.started) !== CLAIM.waiting) {
      reply({ post, skipped: true });
      continue;
    }
    let answer: ThreadAnswer;
    try {
      answer = { post, result: await run(task) };
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      answer = { post, error: { name: err.name, message: err.message, stack: err.stack } };
    }
    Atomics.store(flags, slot, CLAIM.finished);
    reply(answer);
  }
  busy = false;
}

function reply(message: ThreadAnswer): void {
  parentPort!.postMessage({ ...message, at: performance.timeOrigin + performance.now() } as ThreadReply);
}

parentPort!.on('message', (staged: StagedTask) => {
  waiting.push(staged);
  if (!busy) void drain();
});

