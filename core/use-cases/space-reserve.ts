import type { StorageSpace } from '../ports/storage-space.js';

/** No watch: nothing is refused and no error is taken for a full disk (embedding code that gives no StorageSpace). */
export const UNWATCHED_SPACE: StorageSpace = {
  ensureRoom: async () => {},
  isExhausted: () => false,
  release: async () => false,
};

/**
 * Runs `work` (a deletion, or a write that must be recorded); each time it fails because storage is full, a part of
 * the space held back for this is released and `work` runs again, until it succeeds or nothing is held any more.
 * Released a part at a time, so that a failure record leaves the rest to the deletions that follow. `work` must be
 * safe to repeat.
 */
export async function withReleasedReserve<T>(space: StorageSpace, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!space.isExhausted(error) || !(await space.release())) throw error;
    }
  }
}
