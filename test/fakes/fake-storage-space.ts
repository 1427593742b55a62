import { InsufficientStorageError } from '../../core/domain/errors.js';
import type { StorageSpace } from '../../core/ports/storage-space.js';

/** An error as a full disk raises it (Node's ENOSPC). */
export function diskFullError(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/**
 * A StorageSpace the test sets: `full` refuses new work; `steps` parts are held back, each release() gives one;
 * an error with code ENOSPC is a full disk.
 */
export class FakeStorageSpace implements StorageSpace {
  full = false;
  steps = 0;
  released = 0;
  reclaimed = 0;

  async ensureRoom(): Promise<void> {
    if (this.full) throw new InsufficientStorageError();
  }

  isExhausted(error: unknown): boolean {
    return (error as { code?: unknown } | null)?.code === 'ENOSPC';
  }

  async release(): Promise<boolean> {
    if (this.steps === 0) return false;
    this.steps--;
    this.released++;
    return true;
  }

  async reclaim(): Promise<void> {
    this.reclaimed++;
  }
}
