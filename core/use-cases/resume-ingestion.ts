import type { Clock } from '../ports/clock-and-ids.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';

export interface ResumeIngestionDeps {
  jobs: IngestJobRepo;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
}

/**
 * Hands unfinished jobs back to the queue: at start all of them, queued or processing (a previous run of the service
 * ended while they waited or ran); later, periodically, those nobody may hold any more:
 * - processing ones whose lease expired, i.e. whose updatedAt has not moved for `staleAfterMs` although a running job
 *   refreshes it (heartbeat): a run that ended without a final status (its `failed` could not be written);
 * - queued ones older than `staleAfterMs`: their send to the queue may have failed (a shared queue's database was
 *   unreachable for a moment), which nothing else would notice until a restart. Most of them simply wait their turn;
 *   enqueuing a job the queue holds already changes nothing (JobQueue.enqueue), so sending them again is safe.
 */
export class ResumeIngestion {
  constructor(private readonly deps: ResumeIngestionDeps) {}

  /** Returns how many jobs were handed to the queue. */
  async execute(options: { staleAfterMs?: number } = {}): Promise<number> {
    const { jobs, queue, clock, logger } = this.deps;
    const now = clock.now().getTime();
    const { staleAfterMs } = options;
    const due = (await jobs.listUnfinished()).filter(
      (job) => staleAfterMs === undefined || now - Date.parse(job.updatedAt) > staleAfterMs,
    );
    if (due.length > 0) {
      const queued = due.filter((job) => job.status === 'queued').length;
      logger.info('resuming unfinished ingest jobs', { count: due.length, queued, ids: due.map((j) => j.id) });
    }
    for (const job of due) queue.enqueue({ id: job.id, userId: job.userId });
    return due.length;
  }
}
