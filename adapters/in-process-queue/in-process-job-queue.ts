import type { JobQueue } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';

/**
 * Runs jobs in this process, oldest first, `concurrency` at a time. Holds only ids: the jobs themselves are durable
 * in the IngestJobRepo, and unfinished ones are enqueued again at start, so losing this queue loses no work.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly waiting: string[] = [];
  private readonly known = new Set<string>();
  private running = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handler: (jobId: string) => Promise<void>,
    private readonly concurrency: number,
    private readonly logger: Logger,
  ) {}

  enqueue(jobId: string): void {
    if (this.stopped || this.known.has(jobId)) return;
    this.known.add(jobId);
    this.waiting.push(jobId);
    this.pump();
  }

  /** Resolves when nothing is waiting or running (tests, benchmarks). */
  whenIdle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Takes no new jobs and waits for the running ones (graceful shutdown); waiting ones resume at next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    await this.whenIdle();
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.waiting.length > 0) {
      const jobId = this.waiting.shift()!;
      this.running += 1;
      this.handler(jobId)
        .catch((error) => this.logger.error('ingest job crashed', { jobId, error: String(error) }))
        .finally(() => {
          this.running -= 1;
          this.known.delete(jobId);
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            waiters.forEach((w) => w());
          }
        });
    }
  }
}
