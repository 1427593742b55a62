import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Prefixes this process has already cleaned up after earlier processes. */
const swept = new Set<string>();

/**
 * A private temporary folder of this process, `<tmpdir>/<prefix>-<pid>-XXXXXX`, for files that live no longer than it
 * (its owner removes the folder on close). Made after removing the folders earlier processes left (see
 * removeOrphanedTempDirsOnce).
 */
export function makeProcessTempDir(prefix: string): string {
  removeOrphanedTempDirsOnce(prefix);
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-${process.pid}-`));
}

/**
 * A process killed the hard way (SIGKILL, the OOM killer, a power cut) cannot remove its temporary folder, and the folder
 * may hold a copy of a user's document that the user has since deleted. The first call for a prefix in this process
 * removes that prefix's folders whose process no longer runs; later calls do nothing.
 */
export function removeOrphanedTempDirsOnce(prefix: string): void {
  if (swept.has(prefix)) return;
  swept.add(prefix);
  removeOrphanedTempDirs(prefix);
}

/**
 * Removes the `<prefix>-<pid>-XXXXXX` folders in `dir` that belong to this user and whose process no longer runs;
 * returns their paths. A folder of a running process (this one, another server, or a new process that got a dead one's
 * pid) is kept: it goes later. Failures are ignored: cleaning up must never stop the service from starting.
 */
export function removeOrphanedTempDirs(prefix: string, dir = os.tmpdir()): string[] {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)-[A-Za-z0-9]{6}$`);
  const uid = process.getuid?.();
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    const folder = path.join(dir, name);
    try {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      fs.rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
