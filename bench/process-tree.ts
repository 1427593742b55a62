import fs from 'node:fs';

/** Resident memory of a process and all its descendants (Linux /proc), in bytes. */
export function treeRss(root: number): number {
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
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples treeRss(root) every `intervalMs` and keeps the highest value since the last reset. */
export class PeakRssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): number {
    const now = treeRss(this.root);
    this.peak = Math.max(this.peak, now);
    return now;
  }

  /** The peak since the previous reset, in MB, then starts a new window. */
  reset(): number {
    this.sample();
    const mb = this.peak / 1024 / 1024;
    this.peak = 0;
    return mb;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
