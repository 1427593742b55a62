import { randomFillSync } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InsufficientStorageError } from '../../core/domain/errors.js';
import type { Logger } from '../../core/ports/logger.js';
import type { StorageSpace } from '../../core/ports/storage-space.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

/** The file in the watched directory that holds back part of the reserve (see DiskSpace). */
export const HELD_FILE = 'disk-reserve';
/** Free space is looked up at most this often: a statfs per request would cost little, but nothing is gained. */
const DEFAULT_CACHE_MS = 1_000;
/** The held file is written in pieces of this size. */
const PIECE_BYTES = 1 << 20;
/** The held file is released in this many steps (each cut from its end). */
const RELEASE_STEPS = 8;

/**
 * Error codes of storage running out: the disk or the user's quota (Node), a database that could not grow (SQLite),
 * PostgreSQL's disk_full.
 */
const EXHAUSTED_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** Whether `error`, or an error it was caused by, is storage running out. */
export function isStorageExhausted(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && EXHAUSTED_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface DiskSpaceOptions {
  /** The watched directory (DATA_DIR). */
  directory: string;
  /** Below this many free bytes (the held file counted as free) new uploads and ingests are refused. */
  reserveBytes: number;
  /** Of the reserve, the bytes held in a file that a deletion or a failure record releases (default: an eighth). */
  heldBytes?: number;
  logger?: Logger;
  /** The free bytes of the directory's file system for an unprivileged user (default: fs.statfs). */
  freeBytes?: (directory: string) => Promise<number>;
  cacheMs?: number;
  /** Gives back what the stores in the directory freed but keep for reuse (see StorageSpace.reclaim). */
  reclaim?: () => Promise<void>;
}

/**
 * Watches the free space of the data directory. Below `reserveBytes` new work that stores more (uploads, ingests) is
 * refused, so that what is already running, answers and deletions keep room. Part of the reserve is held in a file
 * (HELD_FILE): should something else fill the disk all the same (a running ingestion, another program), a deletion
 * or the record of a job's failure that finds the disk full releases an eighth of it (the file is cut shorter) and
 * tries again, as often as it needs to. It is held back again once free space allows (looked at by the next upload
 * or ingest). Nothing here keeps the process alive.
 */
export class DiskSpace implements StorageSpace {
  private readonly file: string;
  private readonly heldBytes: number;
  private readonly cacheMs: number;
  private readonly freeBytes: (directory: string) => Promise<number>;
  private checked: { at: number; free: number } | undefined;
  /** Bytes the held file holds now (less than heldBytes: partly released, or not made for want of space). */
  private held = 0;
  private arming: Promise<void> | undefined;
  private low = false;

  constructor(private readonly options: DiskSpaceOptions) {
    this.file = path.join(options.directory, HELD_FILE);
    this.heldBytes = Math.floor(options.heldBytes ?? options.reserveBytes / 8);
    this.cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
    this.freeBytes = options.freeBytes ?? freeBytesOf;
  }

  /** Makes the directory, counts a held file an earlier run left, and holds the reserve's part if free space allows. */
  async init(): Promise<void> {
    ensurePrivateDir(this.options.directory);
    // Nothing to hold (a reserve of 0): a file an earlier run held is given back.
    if (this.heldBytes === 0) await fs.rm(this.file, { force: true });
    this.held = await fs.stat(this.file).then((s) => s.size, () => 0);
    await this.hold(await this.free());
  }

  /** Resolves once a held file being written is done (for close and tests). */
  async settled(): Promise<void> {
    await this.arming;
  }

  async ensureRoom(): Promise<void> {
    const free = await this.free();
    if (free + this.held >= this.options.reserveBytes) {
      if (this.low) this.options.logger?.info('disk space is back above the reserve: uploads and ingests are accepted again', this.figures(free));
      this.low = false;
      void this.hold(free);
      return;
    }
    if (!this.low) this.options.logger?.warn('out of disk space: uploads and ingests are refused until space is freed', this.figures(free));
    this.low = true;
    throw new InsufficientStorageError();
  }

  isExhausted(error: unknown): boolean {
    return isStorageExhausted(error);
  }

  async release(): Promise<boolean> {
    await this.arming;
    if (this.held === 0) return false;
    const left = Math.max(0, this.held - Math.ceil(this.heldBytes / RELEASE_STEPS));
    if (left === 0) await fs.rm(this.file, { force: true });
    else await fs.truncate(this.file, left);
    this.options.logger?.warn('the disk is full: released space held back for deletions and failure records', { bytes: this.held - left, stillHeld: left });
    this.held = left;
    this.checked = undefined;
    return true;
  }

  async reclaim(): Promise<void> {
    if (!this.options.reclaim || (await this.free()) + this.held >= this.options.reserveBytes) return;
    try {
      await this.options.reclaim();
    } catch (error) {
      this.options.logger?.warn('could not give back the space a deletion freed', { error: String(error) });
    }
    this.checked = undefined;
  }

  private figures(free: number) {
    return { directory: this.options.directory, freeBytes: free, heldBytes: this.held, reserveBytes: this.options.reserveBytes };
  }

  private async free(): Promise<number> {
    const now = Date.now();
    if (this.checked && now - this.checked.at < this.cacheMs) return this.checked.free;
    const free = await this.freeBytes(this.options.directory);
    this.checked = { at: now, free };
    return free;
  }

  /** Writes the held file anew when some of it was released and holding it leaves the reserve intact; one at a time. */
  private hold(free: number): Promise<void> {
    if (this.held >= this.heldBytes || this.heldBytes === 0 || this.arming || free < this.options.reserveBytes) return this.arming ?? Promise.resolve();
    this.arming = this.writeHeldFile().finally(() => (this.arming = undefined));
    return this.arming;
  }

  /**
   * Written in full (incompressible bytes, synced) under a temporary name, then renamed: a held file is either all
   * there or not at all. A disk that fills meanwhile just leaves none.
   */
  private async writeHeldFile(): Promise<void> {
    const part = `${this.file}.${process.pid}.part`;
    const piece = randomFillSync(Buffer.alloc(Math.min(PIECE_BYTES, this.heldBytes)));
    try {
      const handle = await fs.open(part, 'w', PRIVATE_FILE_MODE);
      try {
        for (let written = 0; written < this.heldBytes; written += piece.length) {
          await handle.write(piece, 0, Math.min(piece.length, this.heldBytes - written));
        }
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(part, this.file);
      this.held = this.heldBytes;
      this.checked = undefined;
    } catch (error) {
      await fs.rm(part, { force: true });
      if (!isStorageExhausted(error)) this.options.logger?.warn('could not hold back disk space for deletions', { error: String(error) });
    }
  }
}

async function freeBytesOf(directory: string): Promise<number> {
  const stats = await fs.statfs(directory);
  return stats.bavail * stats.bsize;
}
