/** What the queue needs to know of a job: which one, and whose turn it takes (jobs are scheduled per user). */
export interface QueuedJob {
  id: string;
  userId: string;
}

/**
 * Runs one job. `signal` is aborted with a JobStoppedError when the job is cancelled (its session deleted) or the
 * queue stops (shutdown: the job is resumed at the next start); the handler then stops as soon as it can.
 * `finishing` (idempotent) tells the queue the job is in its tail: what is left of it no longer needs its slot (for
 * an ingest job, the last pages are being read and the rest indexed), so the next job may start alongside it.
 */
export type JobHandler = (jobId: string, signal: AbortSignal, finishing: () => void) => Promise<void>;

/**
 * Runs ingestion jobs in the background, a few at a time, fairly across users: round-robin over the users with
 * waiting jobs, each user with a limit on running jobs, so one user's long queue never holds back another user's
 * job by more than the documents already in progress. A user's own jobs start in the order they were enqueued.
 * A job that called `finishing` is not counted against the limits, up to as many such jobs as each limit allows
 * (per user, and for the queue's own concurrency): so one user's next document starts while the previous one
 * finishes, and that user still never has more than twice the per-user limit running.
 */
export interface JobQueue {
  /** Schedules a job and returns at once; a job already waiting or running is not added again. */
  enqueue(job: QueuedJob): void;
  /** A waiting job is dropped (it never runs); a running one has its signal aborted. Unknown ids are ignored. */
  cancel(jobId: string): void;
}

/**
 * Running jobs counted against a limit under that rule: jobs in their tail are not, up to `limit` of them. A tail is
 * short (the last pages of one document), so the next job starts beside it, while at most 2 × limit run in all.
 */
export function countedAgainstLimit(limit: number, running: number, finishing: number): number {
  return running - Math.min(finishing, limit);
}
