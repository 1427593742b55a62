import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Linux only (ps --ppid, /proc), like the machines the end-to-end tests run on. */
const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Pids of this process's children whose command line contains `marker`. */
export function childProcesses(marker: string, parent = process.pid): number[] {
  let listing: string;
  try {
    listing = execFileSync('ps', ['--ppid', String(parent), '-o', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return []; // ps exits with 1 when the process has no children
  }
  return listing
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** CPU time (user + system) the process has used, in seconds; null once it is gone. */
export function cpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after "(comm)": state is the first, utime and stime the 12th and 13th (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null; // exited, not yet reaped
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Which of `pids` used more than `busyShare` of a CPU during the next `windowMs` (gone ones are not busy). The default
 * threshold, 2.5 %, is far above an idle Node process (no tick in seconds) and far below a working one even when
 * the machine is loaded tenfold (a working process then still gets about 10 %).
 */
export async function busyProcesses(pids: number[], windowMs = 2000, busyShare = 0.025): Promise<number[]> {
  const before = new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return pids.filter((pid) => {
    const start = before.get(pid);
    const end = cpuSeconds(pid);
    return start !== null && start !== undefined && end !== null && end - start > (busyShare * windowMs) / 1000;
  });
}
