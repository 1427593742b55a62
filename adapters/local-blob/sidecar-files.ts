import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../blob-shared/error-code.js';
import type { ObjectPaths } from './object-keys.js';

/** `meta/<key>.json`: what the local store knows about an object beyond its bytes. */
export interface Sidecar {
  contentType: string;
  size: number;
  uploadedAt: string;
  /** sha256 of the bytes, reported as the etag. */
  sha256?: string;
  /** When the upload URL expires: until then the sidecar outlives a removed object, so the URL stays used. */
  urlExpiresAt?: string;
}

export async function readSidecar(metaPath: string): Promise<Sidecar | undefined> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(metaPath, 'utf8'));
    if (parsed && typeof parsed === 'object' && typeof (parsed as Sidecar).contentType === 'string') {
      return parsed as Sidecar;
    }
  } catch {
    // missing or damaged sidecar: the object is still there, without a content type
  }
  return undefined;
}

/** Whether the sidecar may go once its object is gone: its upload URL has expired (or it never recorded one). */
export function tombstoneExpired(sidecar: Sidecar | undefined, nowMs: number): boolean {
  return !sidecar?.urlExpiresAt || Date.parse(sidecar.urlExpiresAt) <= nowMs;
}

/** Removes sidecars whose object is gone and whose upload URL has expired. */
export async function removeExpiredTombstones(paths: ObjectPaths, nowMs: number): Promise<void> {
  const entries = await fs.readdir(paths.metaDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const meta = path.join(entry.parentPath, entry.name);
    if (await isFile(paths.objectPathOfMeta(meta))) continue;
    if (tombstoneExpired(await readSidecar(meta), nowMs)) await unlinkFile(meta);
  }
}

export async function isFile(target: string): Promise<boolean> {
  try {
    return (await fs.lstat(target)).isFile();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Unlinks a file; a missing one, or a path that is a directory (no object there), is not an error. */
export async function unlinkFile(target: string): Promise<void> {
  try {
    await fs.unlink(target);
  } catch (error) {
    if (isMissing(error)) return;
    // `objects/a` is a directory when only `a/b` exists: there is no object `a` to remove.
    // (unlink says EISDIR on Linux, EPERM on macOS.)
    const code = errorCode(error);
    if ((code === 'EISDIR' || code === 'EPERM') && (await isDirectory(target))) return;
    throw error;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await fs.lstat(file)).isDirectory();
  } catch {
    return false;
  }
}

export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
