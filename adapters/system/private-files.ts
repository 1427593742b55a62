import fs from 'node:fs';

/** Owner-only: data files (database, uploads, secrets) are read by this service and nobody else on the host. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the directory (and missing parents) owner-only, and narrows it to owner-only when it already exists: an
 * install from before this version has 0755 folders. A folder we do not own (a mounted volume) is left as it is.
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir, PRIVATE_DIR_MODE);
}

/** Narrows an existing file to owner-only; a missing file is fine. */
export function ensurePrivateFile(file: string): void {
  narrow(file, PRIVATE_FILE_MODE);
}

function narrow(target: string, mode: number): void {
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
