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
 * Hands unfinished jobs (queued or processing) back to the queue: at start all of them (a previous run of the service
 * ended while they waited or ran), and then periodically those whose lease expired, i.e. whose updatedAt has not
 * moved for `staleAfterMs` although a running job refreshes it (heartbeat): a run that ended without a final status
 * (its `failed` could not be written) or a job whose enqueue was lost. The queue ignores jobs it already holds.
 */
export class ResumeIngestion {
  constructor(private readonly deps: ResumeIngestionDeps) {}

  /** Returns how many jobs were handed to the queue. */
  async execute(options: { staleAfterMs?: number } = {}): Promise<number> {
    const { jobs, queue, clock, logger } = this.deps;
    const now = clock.now().getTime();
    const due = (await jobs.listUnfinished()).filter(
      (job) => options.staleAfterMs === undefined || now - Date.parse(job.updatedAt) > options.staleAfterMs,
    );
    if (due.length > 0) logger.info('resuming unfinished ingest jobs', { count: due.length, ids: due.map((j) => j.id) });
    for (const job of due) queue.enqueue({ id: job.id, userId: job.userId });
    return due.length;
  }
}
