import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A small file system of its own (tmpfs), mounted for a test: the disk a fault test fills up. */
export interface SmallDisk {
  readonly dir: string;
  /** Bytes an unprivileged writer may still use. */
  freeBytes(): number;
  /** Writes `name` (in the disk's root) until nothing more fits; returns the bytes written. */
  fill(name: string): number;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `megabytes` on a new folder. Needs root (mount(2)); resolves to the reason when it cannot, for the
 * suite to skip with.
 */
export function mountSmallDisk(megabytes: number): SmallDisk | string {
  if (process.getuid?.() !== 0) return 'mounting a small file system needs root, and this test runs as another user';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmdirSync(dir);
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `mount -t tmpfs failed here: ${stderr || (error instanceof Error ? error.message : String(error))}`;
  }
  return {
    dir,
    freeBytes: () => {
      const stats = fs.statfsSync(dir);
      return stats.bavail * stats.bsize;
    },
    fill: (name) => fillUp(path.join(dir, name)),
    unmount: () => {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Still busy (a file left open by a failed test): detached now, gone once that file is closed.
        execFileSync('umount', ['--lazy', dir], { stdio: 'pipe' });
      }
      fs.rmdirSync(dir);
    },
  };
}

/** Appends to `file` in pieces halved at each ENOSPC down to 512 bytes, so that the file system ends up full. */
function fillUp(file: string): number {
  const piece = Buffer.alloc(1 << 20, 0x5a);
  const fd = fs.openSync(file, 'a');
  let size = piece.length;
  let written = 0;
  try {
    while (size >= 512) {
      try {
        const n = fs.writeSync(fd, piece, 0, size);
        written += n;
        if (n < size) size /= 2;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        size /= 2;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
