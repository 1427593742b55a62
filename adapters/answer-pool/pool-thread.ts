/**
 * A thread of the answer pool (started by thread-pool.ts): loads the task module, then runs the tasks posted to it one
 * after another. A task is claimed in the shared flags before it starts, so the pool can still take back a task that
 * waits here (cancelled, or moved to an idle thread) without a round trip through this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { CLAIM, type StagedTask, type ThreadAnswer, type ThreadReply, type ThreadStartData } from './thread-protocol.js';

const { pool } = workerData as { pool: ThreadStartData };
const flags = new Int32Array(pool.flags);
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

/**
 * Gives this thread a lower scheduling priority than the request thread (a higher nice value), so that on a busy
 * machine the cheap requests the request thread serves go first and answers take the CPU it leaves. Linux sets the
 * nice value of one thread through its kernel thread id (/proc/thread-self); elsewhere, or when refused, the thread
 * keeps the process's priority.
 */
function lowerThreadPriority(nice: number): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + nice));
  } catch {
    // not Linux, or not allowed: same priority as the request thread
  }
}
