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
 * ended while they waited or ran); later, periodically, the processing ones whose lease expired, i.e. whose updatedAt
 * has not moved for `staleAfterMs` although a running job refreshes it (heartbeat): a run that ended without a final
 * status (its `failed` could not be written). Queued jobs do not heartbeat while they wait, and are in the queue
 * already; the queue ignores jobs it holds anyway.
 */
export class ResumeIngestion {
  constructor(private readonly deps: ResumeIngestionDeps) {}

  /** Returns how many jobs were handed to the queue. */
  async execute(options: { staleAfterMs?: number } = {}): Promise<number> {
    const { jobs, queue, clock, logger } = this.deps;
    const now = clock.now().getTime();
    const { staleAfterMs } = options;
    const due = (await jobs.listUnfinished()).filter(
      (job) => staleAfterMs === undefined || (job.status === 'processing' && now - Date.parse(job.updatedAt) > staleAfterMs),
    );
    if (due.length > 0) logger.info('resuming unfinished ingest jobs', { count: due.length, ids: due.map((j) => j.id) });
    for (const job of due) queue.enqueue({ id: job.id, userId: job.userId });
    return due.length;
  }
}
