import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * How an extraction process yields the CPU to the service:
 * - 'idle': Linux's SCHED_IDLE policy (set with util-linux's chrt) on top of the niceness. A request thread that wakes
 *   preempts an idle-policy process at once; a niced process keeps its slice first (EEVDF), so GET /health waited
 *   2.5× its idle p99 while two niced processes read a long PDF. Extraction loses little: the service is mostly idle.
 * - 'nice': the niceness alone (where chrt is missing, 'idle' falls back to this).
 */
export const EXTRACTION_SCHEDULING = ['idle', 'nice'] as const;
export type ExtractionScheduling = (typeof EXTRACTION_SCHEDULING)[number];

/** The threads of this process: Linux gives each thread its own niceness and policy. */
function threadIds(): number[] {
  try {
    return fs.readdirSync('/proc/self/task').map(Number).filter((tid) => Number.isInteger(tid) && tid > 0);
  } catch {
    return [0]; // no /proc (not Linux): the calling thread only, which other platforms apply to the process
  }
}

/**
 * Lowers this process's CPU priority: `niceness` more than now on every thread it already has (V8's and libuv's
 * threads start before any of our code runs), then the idle policy on all of them if asked. Threads started later
 * inherit both from the thread that starts them. Returns what was applied; a refusal (some containers) leaves the
 * process competing as an equal rather than failing it.
 */
export function runInBackground(niceness: number, scheduling: ExtractionScheduling): { niceness: boolean; idle: boolean } {
  let niced = false;
  if (niceness > 0) {
    for (const tid of threadIds()) {
      try {
        os.setPriority(tid, Math.min(19, os.getPriority(tid) + niceness));
        niced = true;
      } catch {
        // The thread ended meanwhile, or lowering is refused here.
      }
    }
  }
  let idle = false;
  if (scheduling === 'idle' && process.platform === 'linux') {
    const result = spawnSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
    idle = result.status === 0;
  }
  return { niceness: niced, idle };
}

/** The scheduling policy of thread `tid` of process `pid` (Linux), e.g. 'SCHED_IDLE', for tests and diagnostics. */
export function schedulingPolicy(pid: number, tid = pid): string | undefined {
  try {
    const policy = /^policy\s*:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/task/${tid}/sched`, 'utf8'))?.[1];
    return policy === undefined ? undefined : (POLICY_NAMES[Number(policy)] ?? `policy ${policy}`);
  } catch {
    return undefined;
  }
}

const POLICY_NAMES: Record<number, string> = { 0: 'SCHED_OTHER', 1: 'SCHED_FIFO', 2: 'SCHED_RR', 3: 'SCHED_BATCH', 5: 'SCHED_IDLE' };
