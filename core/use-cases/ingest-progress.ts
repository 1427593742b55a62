import type { IngestStage } from '../domain/model.js';
import type { IngestJobPatch, IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Logger } from '../ports/logger.js';

/** Progress is written at most this often, so a 117-page document does not cost hundreds of writes. */
const PROGRESS_INTERVAL_MS = 400;

export interface ProgressWriterDeps {
  jobs: IngestJobRepo;
  logger: Logger;
  /** The time to record as updatedAt (ISO). */
  now(): string;
}

/**
 * Returns a function that records stage, progress and the page being read (throttled unless forced; the last state
 * is written once the interval is over, so a reader stuck on one page has that page recorded) and tells whether the
 * job still exists; a job deleted with its session stops the run (through onGone). stop() ends it: no write after.
 */
export function progressWriter(deps: ProgressWriterDeps, jobId: string, reading: { page?: number }) {
  let lastWrite = 0;
  let latest: { stage: IngestStage; fraction: number } | undefined;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let goneListener: (() => void) | undefined;
  const writeNow = async (stage: IngestStage, fraction: number): Promise<boolean> => {
    lastWrite = Date.now();
    const patch: IngestJobPatch = {
      status: 'processing', stage, progress: Math.min(1, Math.round(fraction * 1000) / 1000), readingPage: reading.page, updatedAt: deps.now(),
    };
    const written = deps.jobs.update(jobId, patch);
    writing = written.catch(() => undefined);
    if ((await written) === null && !write.gone) {
      write.gone = true;
      goneListener?.();
    }
    return !write.gone;
  };
  const write = Object.assign(
    async (stage: IngestStage, fraction: number, force = false): Promise<boolean> => {
      if (write.gone || stopped) return !write.gone;
      latest = { stage, fraction };
      const wait = PROGRESS_INTERVAL_MS - (Date.now() - lastWrite);
      if (force || wait <= 0) {
        clearTimeout(trailing);
        trailing = undefined;
        return writeNow(stage, fraction);
      }
      trailing ??= setTimeout(() => {
        trailing = undefined;
        if (stopped || !latest) return;
        writeNow(latest.stage, latest.fraction).catch((error: unknown) =>
          deps.logger.warn('could not record ingest progress', { jobId, error: String(error) }),
        );
      }, wait);
      return true;
    },
    {
      gone: false,
      onGone: (listener: () => void) => void (goneListener = listener),
      stop: async (): Promise<void> => {
        stopped = true;
        clearTimeout(trailing);
        await writing;
      },
    },
  );
  return write;
}
