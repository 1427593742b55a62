import fs from 'node:fs';
import { currentThreadId, lowerThreadPriority } from '../adapters/system/thread-priority.js';
import { Worker } from 'node:worker_threads';

/** Resident memory of a process and all its descendants (Linux /proc), in bytes. */
export function treeRss(root: number): number {
  return treeRssParts(root).total;
}

/** A process and all its descendants: their ids and their resident memory together, in bytes. */
export function processTree(root: number): { pids: number[]; rssBytes: number } {
  const { pids, total } = treeRssParts(root);
  return { pids, rssBytes: total };
}

/**
 * Resident memory of a process (`root`) and of all its descendants together, in bytes; `fileBacked`: how much of the
 * total is pages mapped from files (the node binary and its libraries, in every process: one copy in memory).
 */
export function treeRssParts(root: number): { total: number; root: number; descendants: number; fileBacked: number; pids: number[] } {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  const file = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      rss.set(Number(entry), statusKb(status, 'VmRSS') * 1024);
      file.set(Number(entry), statusKb(status, 'RssFile') * 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  let fileBacked = 0;
  const pids: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!rss.has(pid)) continue;
    pids.push(pid);
    total += rss.get(pid)!;
    fileBacked += file.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  const own = rss.get(root) ?? 0;
  return { total, root: own, descendants: total - own, fileBacked, pids };
}

/**
 * Proportional set size of a process and all its descendants (Linux /proc/<pid>/smaps_rollup), in bytes: each page
 * shared by n processes counts 1/n in each. Summed RSS counts the pages of the node binary and its libraries, which
 * every process of the tree maps from the same files, once per process (~50-60 MB each); PSS is what the tree
 * really takes from the machine. Pages shared with processes outside the tree (other Node programs running on the
 * machine) are split with them too: on a shared machine PSS is lower than the tree alone would take. Slower to read
 * than RSS (the kernel walks every mapping), so sampled less often.
 */
export function treePss(root: number): number {
  let total = 0;
  for (const pid of treeRssParts(root).pids) {
    try {
      total += Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/**
 * Resident memory of one process by kind (Linux /proc/<pid>/status), in MB: anonymous (heaps, wasm memory, thread
 * stacks, malloc arenas), file-backed (the node binary and libraries: shared, clean, reclaimable) and shared memory.
 */
export function rssKinds(pid: number): { anonMb: number; fileMb: number; shmemMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => statusKb(status, name) / 1024;
  return { anonMb: mb('RssAnon'), fileMb: mb('RssFile'), shmemMb: mb('RssShmem') };
}

/** A "Name:   1234 kB" field of /proc/<pid>/status, in kB (0 when absent). */
function statusKb(status: string, name: string): number {
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
}

/**
 * Samples treeRss(root) every `intervalMs` and keeps the highest value since the last reset (and how it splits).
 * The sampling runs on a worker thread: reading /proc for every process takes 1–9 ms, which on the bench's own event
 * loop would delay the responses whose latency the bench measures; the thread runs at niceness 10. Peaks are shared
 * through atomics (bytes as BigInt).
 */
export class PeakRssSampler {
  /**
   * [total, root, descendants] of the peak since the last reset, then the peak PSS of the tree, then the peak's
   * file-backed part and its process count, in bytes (a count for the last).
   */
  private readonly shared = new BigInt64Array(new SharedArrayBuffer(6 * 8));
  /** At the last reset's peak: the root process and its descendants, in MB; the file-backed part; how many processes. */
  lastPeakParts = { rootMb: 0, descendantsMb: 0, fileBackedMb: 0, processes: 0 };
  /** The tree's highest PSS (see treePss) in the window before the last reset, in MB (sampled every 5th interval). */
  lastPeakPssMb = 0;
  private readonly worker: Worker;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    // The worker runs this module's own (already compiled) functions as plain CommonJS: no TypeScript loader there.
    // Niced like the extraction processes (Linux: a thread's own niceness through its kernel id): sampling is the
    // bench's work, and at the service's priority it took a core from the requests whose latency the bench measures.
    const source = `const fs = require('node:fs');\nconst os = require('node:os');\n${statusKb}\n${treeRssParts}\n${treePss}\n${recordPeak}\n` +
      `${recordPeakPss}\n${currentThreadId}\n${lowerThreadPriority}\nlowerThreadPriority(10);\n` +
      `const { root, intervalMs, shared } = require('node:worker_threads').workerData;\nlet tick = 0;\n` +
      `setInterval(() => { recordPeak(shared, treeRssParts(root)); if (tick++ % 5 === 0) recordPeakPss(shared, treePss(root)); }, intervalMs);`;
    this.worker = new Worker(source, { eval: true, workerData: { root, intervalMs, shared: this.shared } });
    this.worker.unref();
  }

  sample(): number {
    const now = treeRssParts(this.root);
    recordPeak(this.shared, now);
    return now.total;
  }

  /** The peak since the previous reset, in MB, then starts a new window. */
  reset(): number {
    this.sample();
    // Swapped out one by one: a worker sample landing in between only mixes two samples of the same instant's order.
    const total = Number(Atomics.exchange(this.shared, 0, 0n));
    const root = Number(Atomics.exchange(this.shared, 1, 0n));
    const descendants = Number(Atomics.exchange(this.shared, 2, 0n));
    this.lastPeakPssMb = Number(Atomics.exchange(this.shared, 3, 0n)) / 1024 / 1024;
    const fileBacked = Number(Atomics.exchange(this.shared, 4, 0n));
    const processes = Number(Atomics.exchange(this.shared, 5, 0n));
    this.lastPeakParts = { rootMb: root / 1024 / 1024, descendantsMb: descendants / 1024 / 1024, fileBackedMb: fileBacked / 1024 / 1024, processes };
    return total / 1024 / 1024;
  }

  stop(): void {
    void this.worker.terminate();
  }
}

function recordPeakPss(shared: BigInt64Array, pss: number): void {
  for (;;) {
    const peak = Atomics.load(shared, 3);
    if (BigInt(pss) <= peak || Atomics.compareExchange(shared, 3, peak, BigInt(pss)) === peak) return;
  }
}

function recordPeak(shared: BigInt64Array, now: { total: number; root: number; descendants: number; fileBacked: number; pids: number[] }): void {
  for (;;) {
    const peak = Atomics.load(shared, 0);
    if (BigInt(now.total) <= peak) return;
    if (Atomics.compareExchange(shared, 0, peak, BigInt(now.total)) === peak) {
      Atomics.store(shared, 1, BigInt(now.root));
      Atomics.store(shared, 2, BigInt(now.descendants));
      Atomics.store(shared, 4, BigInt(now.fileBacked));
      Atomics.store(shared, 5, BigInt(now.pids.length));
      return;
    }
  }
}

/**
 * CPU time used by the descendants of `root` (Linux /proc, in seconds): their user + system time, with that of their
 * own exited children, plus what `root` collected from its exited children (extraction processes that were recycled).
 * Unlike wall time, it does not grow when other programs load the machine: a cost per page that grows with the
 * document's length shows here too.
 */
export function descendantsCpuSeconds(root: number): number {
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux architecture Node supports
  const children = new Map<number, number[]>();
  const ticks = new Map<number, { own: number; reaped: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces, inside parentheses): state is field 3.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      ticks.set(Number(entry), { own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) });
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = ticks.get(root)?.reaped ?? 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    const t = ticks.get(pid);
    if (t) total += t.own + t.reaped;
    stack.push(...(children.get(pid) ?? []));
  }
  return total / ticksPerSecond;
}

/** CPU time a process used itself, all its threads together, not its children's (Linux /proc, seconds). */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100)
}

/**
 * CPU time of a process's live threads grouped by thread name (Linux /proc, seconds): MainThread (the event loop),
 * WorkerThread (worker_threads), V8Worker (GC and compiler helpers), libuv-worker (fs, crypto, zlib), ….
 */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended while we looked.
    }
  }
  return byName;
}

/**
 * How long a thread waited for a CPU while runnable, and how often it was put on one (Linux /proc schedstat, which
 * the kernel keeps for every thread): a request thread that waits here while the service is otherwise idle is
 * delayed by the scheduler, not by its own work. `tid` defaults to the process's main thread (the event loop).
 */
export function cpuWait(pid: number, tid = pid): CpuWait | undefined {
  try {
    const [, waitNs, runs] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { waitMs: waitNs / 1e6, runs };
  } catch {
    return undefined; // not Linux, or a kernel without schedstats
  }
}

export interface CpuWait {
  waitMs: number;
  runs: number;
}

/** What a thread waited for a CPU since `before` (a cpuWait reading), or undefined where schedstat is not read. */
export function cpuWaitSince(before: CpuWait | undefined, pid: number, tid = pid): CpuWait | undefined {
  const after = cpuWait(pid, tid);
  return before && after ? { waitMs: after.waitMs - before.waitMs, runs: after.runs - before.runs } : undefined;
}
