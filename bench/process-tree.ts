import fs from 'node:fs';

/** A process and all its descendants (Linux /proc): their ids and their resident memory together, in bytes. */
export function processTree(root: number): { pids: number[]; rssBytes: number } {
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
  const pids: number[] = [];
  let rssBytes = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!rss.has(pid)) continue;
    pids.push(pid);
    rssBytes += rss.get(pid)!;
    stack.push(...(children.get(pid) ?? []));
  }
  return { pids, rssBytes };
}

/** Resident memory of a process and all its descendants, in bytes. */
export function treeRss(root: number): number {
  return processTree(root).rssBytes;
}
