import type pg from 'pg';
import { JobStoppedError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import { countedAgainstLimit, type JobHandler, type JobQueue, type QueuedJob } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { QueueTable, type RetryPolicy, type TakenJob } from './queue-table.js';

export interface PostgresJobQueueOptions {
  /** The database's pool (shared with the records); the queue never closes it. */
  pool: pg.Pool;
  /** Jobs this process runs at once (up to as many finishing ones aside, see JobQueue). */
  concurrency: number;
  /** Jobs of one user running at once in all processes together (up to as many finishing ones aside). Default 1. */
  perUser?: number;
  /** False: this process only enqueues and cancels (an HTTP-only instance); it runs no job. Default true. */
  work?: boolean;
  /** The schema of the queue's table (created when missing). Default 'doc_chat_queue'. */
  schema?: string;
  /** The queue's name: queues of other names share the table but not their jobs. Default 'ingest'. */
  queueName?: string;
  /** How often this process looks for waiting jobs and checks its running ones for a cancel. Default 1000. */
  pollIntervalMs?: number;
  /** A running job whose process stops renewing it (renewed every third of this) expires after this long. Default 60. */
  leaseSeconds?: number;
  /** Runs of a job retried after its lease expired or its handler threw. Default 5. */
  retryLimit?: number;
  /** First wait before such a retry, doubled each time (with jitter). Default 10. */
  retryDelaySeconds?: number;
  /** How often each working process expires jobs whose lease ran out and deletes old ended rows. Default 15. */
  maintenanceIntervalSeconds?: number;
}

interface Running extends TakenJob {
  controller: AbortController;
  done: Promise<void>;
  /** The handler said the job is in its tail (see JobHandler). */
  finishing: boolean;
}

/** How long a cancel made here is remembered against takes that were already under way (far longer than one take). */
const CANCEL_MEMORY_MS = 10 * 60_000;

/**
 * A JobQueue several processes share through a table of its own on the records' PostgreSQL database (why not a queue
 * library's table: see queue-table.ts). Each working process polls: it expires jobs whose lease ran out, chooses which
 * waiting jobs start (fair across users, each user below its limit in all processes: QueueTable.take), renews the
 * lease of its running jobs, and checks their rows so that a cancel from any process aborts them. A job whose handler
 * throws is retried with a doubling delay. Like the embedded queue it holds ids only: jobs are durable in the
 * IngestJobRepo and the handler is idempotent.
 */
export class PostgresJobQueue implements JobQueue {
  private readonly table: QueueTable;
  private readonly name: string;
  private readonly concurrency: number;
  private readonly perUser: number;
  private readonly work: boolean;
  private readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;
  private readonly retry: RetryPolicy;
  private readonly maintenanceIntervalMs: number;
  private lastMaintenance = 0;
  private readonly running = new Map<string, Running>();
  /** Jobs cancelled here lately (id → when), whatever their row says yet; forgotten after CANCEL_MEMORY_MS. */
  private readonly cancelledHere = new Map<string, number>();
  /** Sends and cancels in call order, so a job's insert lands before its cancel and jobs age in enqueue order. */
  private commands: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  private lastRenewal = 0;
  /** Set by start(): the queue's table exists once it resolves; sends and cancels wait for it. */
  private ready: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly handler: JobHandler,
    options: PostgresJobQueueOptions,
    private readonly logger: Logger,
  ) {
    const { concurrency, perUser = 1, pollIntervalMs = 1000, leaseSeconds = 60, retryLimit = 5, retryDelaySeconds = 10, maintenanceIntervalSeconds = 15 } = options;
    const positive = { concurrency, perUser, pollIntervalMs, leaseSeconds, retryDelaySeconds, maintenanceIntervalSeconds };
    for (const [name, value] of Object.entries(positive)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
    if (!Number.isInteger(retryLimit) || retryLimit < 0) throw new RangeError('retryLimit must be a non-negative integer');
    this.concurrency = concurrency;
    this.perUser = perUser;
    this.work = options.work ?? true;
    this.pollIntervalMs = pollIntervalMs;
    this.leaseSeconds = leaseSeconds;
    this.retry = { retryLimit, retryDelaySeconds };
    this.maintenanceIntervalMs = maintenanceIntervalSeconds * 1000;
    this.name = options.queueName ?? 'ingest';
    this.table = new QueueTable(options.pool, options.schema ?? 'doc_chat_queue', this.name);
  }

  /** Creates the queue's table when missing (safe when instances start together), then starts polling. */
  start(): Promise<void> {
    this.ready ??= this.open();
    return this.ready;
  }

  private async open(): Promise<void> {
    await this.table.create();
    this.started = true;
    if (this.work) this.wake();
  }

  enqueue(job: QueuedJob): void {
    if (this.stopped) return;
    if (!this.ready) throw new Error('PostgresJobQueue: call start() before enqueue');
    this.cancelledHere.delete(job.id);
    this.command('enqueue', job.id, () => this.table.send(job.id, job.userId, this.retry));
    this.wake();
  }

  cancel(jobId: string): void {
    if (!this.ready) throw new Error('PostgresJobQueue: call start() before cancel');
    this.running.get(jobId)?.controller.abort(new JobStoppedError('cancelled'));
    this.cancelledHere.set(jobId, Date.now());
    // Also for a job running here: the cancelled row keeps any process from taking it again.
    this.command('cancel', jobId, () => this.table.cancel(jobId));
  }

  /** Resolves when no job waits or runs in any process sharing the queue (tests, benchmarks). */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.commands;
      if (this.running.size === 0 && (await this.table.isIdle())) return;
      await new Promise((resolve) => setTimeout(resolve, this.pollIntervalMs));
    }
  }

  /**
   * Takes no new jobs, aborts the running ones as a shutdown and waits for them to stop, then hands them back to the
   * queue so that another worker takes them now rather than after their lease; pending sends and cancels finish.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    for (const entry of this.running.values()) entry.controller.abort(new JobStoppedError('shutdown'));
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    await this.commands;
  }

  private command(what: string, jobId: string, run: () => Promise<unknown>): void {
    this.commands = this.commands.then(() => this.ready).then(run).then(
      () => undefined,
      // No work is lost: an unsent job's record stays queued and ResumeIngestion sends it again once it is older than
      // the lease; a job whose cancel failed finds its session gone at its next write and stops.
      (error) => this.logger.error(`could not ${what} the job in the queue table`, { jobId, error: String(error) }),
    );
  }

  /** Looks for work now (after an enqueue here or a job's end), and from then on every poll interval. */
  private wake(): void {
    if (!this.work || !this.started || this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.ticking = this.tick().finally(() => {
      this.ticking = undefined;
      if (this.stopped) return;
      if (this.tickAgain) {
        this.tickAgain = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.pollIntervalMs);
      }
    });
  }

  private async tick(): Promise<void> {
    try {
      await this.commands; // what was enqueued or cancelled here before is in the table
      if (Date.now() - this.lastMaintenance >= this.maintenanceIntervalMs) {
        await this.table.maintain();
        this.lastMaintenance = Date.now();
        for (const [jobId, at] of this.cancelledHere) if (this.lastMaintenance - at > CANCEL_MEMORY_MS) this.cancelledHere.delete(jobId);
      }
      await this.watchRunning();
      // Jobs in their tail leave their slot to the next job, up to `concurrency` of them (as in the embedded queue).
      const finishing = [...this.running.values()].filter((entry) => entry.finishing).length;
      const free = this.concurrency - countedAgainstLimit(this.concurrency, this.running.size, finishing);
      if (free <= 0 || this.stopped) return;
      for (const job of await this.table.take(free, this.perUser, this.leaseSeconds)) {
        // A take under way when cancel() came may return the job before the cancel reached its row: it must not run.
        if (!this.cancelledHere.has(job.jobId)) this.run(job);
      }
    } catch (error) {
      this.logger.error('could not poll the job queue', { error: String(error) });
    }
  }

  /** Aborts running jobs cancelled elsewhere or taken from us; renews the others' lease every third of it. */
  private async watchRunning(): Promise<void> {
    const jobs = [...this.running.values()];
    if (jobs.length === 0) return;
    const states = await this.table.check(jobs);
    for (const job of jobs) {
      const state = states.get(job.jobId);
      if (state === 'cancelled') job.controller.abort(new JobStoppedError('cancelled'));
      // Its lease expired and another process may run it now: stop here, as at a shutdown, leaving the record unfinished.
      else if (state === 'lost') job.controller.abort(new JobStoppedError('shutdown'));
    }
    if (Date.now() - this.lastRenewal >= (this.leaseSeconds * 1000) / 3) {
      await this.table.renew(jobs.filter((job) => !job.controller.signal.aborted), this.leaseSeconds);
      this.lastRenewal = Date.now();
    }
  }

  private run(job: TakenJob): void {
    const controller = new AbortController();
    if (this.stopped) controller.abort(new JobStoppedError('shutdown'));
    const entry: Running = { ...job, controller, done: Promise.resolve(), finishing: false };
    this.running.set(job.jobId, entry);
    entry.done = this.runToEnd(entry);
  }

  /** The job no longer needs its slot: recorded in its row (its user's limit is counted there), then look for work. */
  private markFinishing(entry: Running): void {
    if (entry.finishing || this.running.get(entry.jobId) !== entry) return;
    entry.finishing = true;
    this.command('mark finishing', entry.jobId, () => this.table.finishing(entry));
    this.wake();
  }

  private async runToEnd(entry: Running): Promise<void> {
    let failure: unknown;
    try {
      if (!entry.controller.signal.aborted) await this.handler(entry.jobId, entry.controller.signal, () => this.markFinishing(entry));
    } catch (error) {
      failure = error;
      // The database (or another dependency) going away is an outage, not a defect of the job: it runs again later.
      if (error instanceof UpstreamUnavailableError) this.logger.warn('ingest job interrupted by an outage; it runs again', { jobId: entry.jobId, error: String(error) });
      else this.logger.error('ingest job crashed', { jobId: entry.jobId, error: String(error) });
    }
    try {
      const reason = entry.controller.signal.reason as unknown;
      if (reason instanceof JobStoppedError && reason.why === 'shutdown') await this.table.release(entry);
      else if (failure !== undefined) await this.table.fail(entry, String(failure)); // retried with backoff
      else await this.table.complete(entry);
    } catch (error) {
      // Its lease runs out and maintenance retries it: the handler is idempotent.
      this.logger.error('could not record the end of a job in the queue table', { jobId: entry.jobId, error: String(error) });
    } finally {
      this.running.delete(entry.jobId);
      this.wake();
    }
  }
}
