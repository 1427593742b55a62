import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * How an extraction process yields the CPU to the service:
 * - 'nice' (default): the niceness alone, on every thread.
 * - 'idle': Linux's SCHED_IDLE policy (set with util-linux's chrt) on top. A request thread that wakes preempts an
 *   idle-policy process at once, where a niced one may finish its slice first; but only on a kernel that preempts on
 *   wake-up: with preempt=none (the project's VM, 250 Hz) perf sched still showed the service's event loop waiting up
 *   to a tick (4 ms) behind idle-policy extraction threads, 19 times ≥ 2.5 ms in 8 s against 26 niced. Measured on 2
 *   cores while two processes read a 4,557-page PDF (bench/long-documents.ts, two runs each): GET /health p99
 *   1.94-1.99 × idle against 2.02-2.16 niced, but ingestion 9 % slower; and an idle-policy process gets almost no
 *   CPU (weight 3 against 1,024) while other work fills every core, so under a long busy spell its pages could run
 *   past EXTRACTION_PAGE_TIMEOUT_MS and the document fail. Hence not the default; for machines with cores to spare
 *   where request latency comes first.
 * Where chrt is missing, 'idle' falls back to 'nice'.
 */
export const EXTRACTION_SCHEDULING = ['nice', 'idle'] as const;
export const DEFAULT_EXTRACTION_SCHEDULING: ExtractionScheduling = 'nice';
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
