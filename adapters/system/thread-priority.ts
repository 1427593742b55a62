import fs from 'node:fs';
import os from 'node:os';

/** The kernel id of the calling thread (Linux, through /proc/thread-self); undefined elsewhere. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gives the calling thread `nice` more niceness than it has (at most 19), so that on a busy machine the request thread
 * goes first. Linux sets the nice value of one thread through its kernel thread id; elsewhere, or when refused, the
 * thread keeps the process's priority. Self-contained but for currentThreadId, `fs` and `os`: a bench injects both
 * functions' source into a worker it starts from a string.
 */
export function lowerThreadPriority(nice: number): void {
  const tid = currentThreadId();
  if (tid === undefined) return;
  try {
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + nice));
  } catch {
    // not allowed here: same priority as the request thread
  }
}
