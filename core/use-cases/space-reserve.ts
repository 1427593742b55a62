import type { StorageSpace } from '../ports/storage-space.js';

/** No watch: nothing is refused and no error is taken for a full disk (embedding code that gives no StorageSpace). */
export const UNWATCHED_SPACE: StorageSpace = {
  ensureRoom: async () => {},
  isExhausted: () => false,
  release: async () => false,
};

/**
 * Runs `work` (a deletion, or a write that must be recorded). When it fails because storage is full, it runs again
 * told so (`diskFull`: a deletion then removes its files first, freeing what it can itself), and each time it fails
 * so after that, a part of the space held back for this is released first, until it succeeds or nothing is held any
 * more. Released a part at a time, so that a failure record leaves the rest to the deletions that follow. `work`
 * must be safe to repeat. Once it succeeds, the stores are asked to give back what it freed (if space is short).
 */
export async function withReleasedReserve<T>(space: StorageSpace, work: (diskFull: boolean) => Promise<T>): Promise<T> {
  let diskFull = false;
  for (;;) {
    try {
      const done = await work(diskFull);
      await space.reclaim?.();
      return done;
    } catch (error) {
      if (!space.isExhausted(error) || (diskFull && !(await space.release()))) throw error;
      diskFull = true;
    }
  }
}
