import fs from 'node:fs';

/** Resident memory of a process and all its descendants (Linux /proc), in bytes. */
export function treeRss(root: number): number {
  return treeRssParts(root).total;
}

/** A process and all its descendants: their ids and their resident memory together, in bytes. */
export function processTree(root: number): { pids: number[]; rssBytes: number } {
  const { pids, total } = treeRssParts(root);
  return { pids, rssBytes: total };
}

/** Resident memory of a process (`root`) and of all its descendants together, in bytes. */
export function treeRssParts(root: number): { total: number; root: number; descendants: number; pids: number[] } {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), kb * 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  const pids: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!rss.has(pid)) continue;
    pids.push(pid);
    total += rss.get(pid)!;
    stack.push(...(children.get(pid) ?? []));
  }
  const own = rss.get(root) ?? 0;
  return { total, root: own, descendants: total - own, pids };
}

/** Samples treeRss(root) every `intervalMs` and keeps the highest value since the last reset (and how it splits). */
export class PeakRssSampler {
  private peak = 0;
  private peakParts = { root: 0, descendants: 0 };
  /** At the last reset's peak: the root process and its descendants, in MB. */
  lastPeakParts = { rootMb: 0, descendantsMb: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): number {
    const now = treeRssParts(this.root);
    if (now.total > this.peak) {
      this.peak = now.total;
      this.peakParts = now;
    }
    return now.total;
  }

  /** The peak since the previous reset, in MB, then starts a new window. */
  reset(): number {
    this.sample();
    const mb = this.peak / 1024 / 1024;
    this.lastPeakParts = { rootMb: this.peakParts.root / 1024 / 1024, descendantsMb: this.peakParts.descendants / 1024 / 1024 };
    this.peak = 0;
    this.peakParts = { root: 0, descendants: 0 };
    return mb;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
