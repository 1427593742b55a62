/**
 * What bench/chat-under-load.ts reads of a running service besides its answers: CPU per thread (Linux /proc) and, from
 * its /metrics, database connection waits and the answer pool's hand-off waits.
 */
import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';

export interface Service { url: string; process: ChildProcess }

/**
 * CPU seconds the service used so far (Linux /proc): its request thread (the main thread, whose id is the process id)
 * and its other threads together (answer threads, SQLite's threads, GC helpers). Shows whether the request thread was
 * the bottleneck (near 100 %) or was left waiting; undefined where /proc is not readable.
 */
export function threadCpu(service: Service): { requestThread: number; others: number } | undefined {
  const pid = service.process.pid;
  const seconds = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (USER_HZ, 100 on Linux)
  };
  try {
    const all = seconds(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const main = seconds(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    return { requestThread: main, others: all - main };
  } catch {
    return undefined;
  }
}

/**
 * Checkouts of each database pool and their waits for a free connection, from the service's /metrics (PostgreSQL
 * only; empty on the embedded stack): the share of the history latency spent queueing for a connection.
 */
export async function connectionWaits(service: Service): Promise<string> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const value = (series: string, pool: string, le?: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`doc_chat_database_connection_wait_seconds_${series}{`) &&
      l.includes(`pool="${pool}"`) && (le === undefined || l.includes(`le="${le}"`)));
    return line ? Number(line.split(' ')[1]) : NaN;
  };
  return ['records', 'reads', 'search'].filter((pool) => !Number.isNaN(value('count', pool))).map((pool) => {
    const count = value('count', pool);
    const over = count - value('bucket', pool, '0.005');
    return `${pool} pool: ${count} checkouts, mean wait ${(1000 * value('sum', pool) / Math.max(count, 1)).toFixed(1)} ms, ` +
      `${(100 * over / Math.max(count, 1)).toFixed(1)} % waited > 5 ms`;
  }).join('; ');
}

/** doc_chat_pool_handoff_wait_seconds of the answer pool so far (undefined without a pool). */
export async function handOffWait(service: Service): Promise<number | undefined> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('doc_chat_pool_handoff_wait_seconds{') && l.includes('pool="answer"'));
  return line ? Number(line.split(' ')[1]) : undefined;
}

/** How long a thread ran and waited, runnable, for a CPU (Linux /proc/…/schedstat), in ms, and its times on a CPU. */
export interface SchedTimes { runMs: number; waitMs: number; slices: number }

/** Scheduler times of each of a process's threads now, by thread id (Linux schedstat); empty where unreadable. */
export function schedSample(pid: number): Map<string, SchedTimes> {
  const sample = new Map<string, SchedTimes>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return sample;
  }
  for (const tid of tids) {
    try {
      const [run, wait, slices] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
      sample.set(tid, { runMs: run / 1e6, waitMs: wait / 1e6, slices });
    } catch { /* the thread ended meanwhile */ }
  }
  return sample;
}

/**
 * Between two samples of `pid`: its main thread's times (the request thread; its id is the process id) and its other
 * threads' together, of the threads alive at both (threads that started or ended meanwhile are left out). Waiting
 * runnable is time a thread was ready while others had the CPUs: what answer threads at the request thread's priority
 * cost a history request on a machine with fewer cores than busy threads. Undefined where /proc is not readable.
 */
export function schedBetween(pid: number, before: Map<string, SchedTimes>, after: Map<string, SchedTimes>): { main: SchedTimes; others: SchedTimes } | undefined {
  const main = String(pid);
  const delta = (tid: string): SchedTimes => {
    const [a, b] = [before.get(tid)!, after.get(tid)!];
    return { runMs: b.runMs - a.runMs, waitMs: b.waitMs - a.waitMs, slices: b.slices - a.slices };
  };
  if (!before.has(main) || !after.has(main)) return undefined;
  const others: SchedTimes = { runMs: 0, waitMs: 0, slices: 0 };
  for (const tid of after.keys()) {
    if (tid === main || !before.has(tid)) continue;
    const d = delta(tid);
    others.runMs += d.runMs; others.waitMs += d.waitMs; others.slices += d.slices;
  }
  return { main: delta(main), others };
}
