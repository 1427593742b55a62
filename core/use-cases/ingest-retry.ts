import type { IngestJob } from '../domain/model.js';
import { CHECKPOINT_MS } from './page-indexer.js';

/** How hard a job is tried before it is failed, and how a running one shows it is alive. */
export interface IngestRetrySettings {
  /**
   * Runs in a row that index no further page (a crash of the service mid-run counts as one) before the job is failed.
   * A run that records a checkpoint is not counted: a long document killed again and again still finishes.
   */
  maxAttempts: number;
  /** Wait before retrying within the process, doubled each time; also the first wait between writes of `failed`. */
  backoffMs: number;
  /** While a job runs, its updatedAt is refreshed at least this often, even when no page is done meanwhile. */
  heartbeatMs: number;
  /** An unfinished job whose updatedAt is older than this is no longer run by anyone: ResumeIngestion enqueues it. */
  leaseMs: number;
  /** While pages are indexed, a checkpoint is recorded at least this often: what a run cut short loses at most. */
  checkpointMs: number;
}

export const DEFAULT_INGEST_RETRY: IngestRetrySettings = {
  maxAttempts: 3, backoffMs: 1000, heartbeatMs: 15_000, leaseMs: 60_000, checkpointMs: CHECKPOINT_MS,
};

/** Runs since the last one that recorded a checkpoint (all of them without one): how long the job has been stuck. */
export function stalledRuns(job: IngestJob): number {
  return (job.attempts ?? 0) - (job.checkpoint?.run ?? 0);
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
