import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { Logger } from '../ports/logger.js';
import type { UploadRepo } from '../ports/upload-repo.js';

/**
 * How long after its URL expired a never-ingested upload is kept. Longer than any upload can run (a PUT that started
 * before the expiry may still be writing), and it leaves the user time to ingest a file sent just in time.
 */
export const SWEEP_GRACE_MS = 3600_000;
const BATCH = 500;

export interface SweepUploadsDeps {
  uploads: UploadRepo;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
}

/** Removes uploads never ingested (file and record) once their URL expired more than SWEEP_GRACE_MS ago. */
export class SweepUploads {
  constructor(private readonly deps: SweepUploadsDeps) {}

  /** Returns how many uploads were removed. Throws (after putting its record back) when a file cannot be removed. */
  async execute(): Promise<number> {
    const { uploads, blobs, clock, logger } = this.deps;
    const cutoff = new Date(clock.now().getTime() - SWEEP_GRACE_MS).toISOString();
    let removed = 0;
    for (;;) {
      const expired = await uploads.listExpiredPending(cutoff, BATCH);
      for (const record of expired) {
        // Claimed first: an ingest that marked the record meanwhile wins, and one after the claim finds no record.
        if (!(await uploads.deletePending(record.key))) continue;
        try {
          await blobs.remove(record.key);
        } catch (error) {
          await uploads.create(record);
          throw error;
        }
        removed += 1;
      }
      if (expired.length < BATCH) break;
    }
    if (removed > 0) logger.info('removed uploads never ingested', { count: removed });
    return removed;
  }
}
