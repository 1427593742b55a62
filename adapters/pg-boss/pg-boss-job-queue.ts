import PgBoss from 'pg-boss';
import type pg from 'pg';
import { JobStoppedError } from '../../core/domain/errors.js';
import type { JobHandler, JobQueue, QueuedJob } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { bossIdOf, QueueSql, type TakenJob } from './queue-sql.js';

export interface PgBossJobQueueOptions {
  /** The database's pool (shared with the records); the queue never closes it. */
  pool: pg.Pool;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Jobs of one user running at once in all processes together. Default 1. */
  perUser?: number;
  /** False: this process only enqueues and cancels (an HTTP-only instance); it runs no job. Default true. */
  work?: boolean;
  /** pg-boss's schema. Default 'pgboss'. */
  schema?: string;
  /** The pg-boss queue. Default 'ingest'. */
  queueName?: string;
  /** How often this process looks for waiting jobs and checks its running ones for a cancel. Default 1000. */
  pollIntervalMs?: number;
  /** A running job whose process stops renewing it (renewed every third of this) expires after this long. Default 60. */
  leaseSeconds?: number;
  /** Runs of a job pg-boss retries after it expired or its handler threw. Default 5. */
  retryLimit?: number;
  /** First wait before such a retry, doubled each time (with jitter). Default 10. */
  retryDelaySeconds?: number;
  /** How often one of the processes expires jobs whose lease ran out (pg-boss maintenance). Default 15. */
  maintenanceIntervalSeconds?: number;
}

interface Running extends TakenJob {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * A JobQueue several processes share through pg-boss on the records' PostgreSQL database. pg-boss stores the jobs,
 * cancels them, retries a failed or expired one with backoff and expires jobs whose process died; this adapter
 * chooses which waiting job starts (fair across users, each user below its limit in all processes: QueueSql.take),
 * renews the lease of its running jobs, and polls their rows so that a cancel from any process aborts them.
 * Like the embedded queue it holds ids only: jobs are durable in the IngestJobRepo and the handler is idempotent.
 */
export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly sql: QueueSql;
  private readonly name: string;
  private readonly concurrency: number;
  private readonly perUser: number;
  private readonly work: boolean;
  private readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;
  private readonly retry: { retryLimit: number; retryDelay: number; retryBackoff: true };
  private readonly running = new Map<string, Running>();
  /** Sends and cancels in call order, so a job's insert lands before its cancel and jobs age in enqueue order. */
  private commands: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  private lastRenewal = 0;
  /** Set by start(): pg-boss's schema and the queue exist once it resolves; sends and cancels wait for it. */
  private ready: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly handler: JobHandler,
    options: PgBossJobQueueOptions,
    private readonly logger: Logger,
  ) {
    const { concurrency, perUser = 1, pollIntervalMs = 1000, leaseSeconds = 60, retryLimit = 5, retryDelaySeconds = 10 } = options;
    const positive = { concurrency, perUser, pollIntervalMs, leaseSeconds, retryDelaySeconds };
    for (const [name, value] of Object.entries(positive)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
    if (!Number.isInteger(retryLimit) || retryLimit < 0) throw new RangeError('retryLimit must be a non-negative integer');
    this.concurrency = concurrency;
    this.perUser = perUser;
    this.work = options.work ?? true;
    this.pollIntervalMs = pollIntervalMs;
    this.leaseSeconds = leaseSeconds;
    this.retry = { retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true };
    this.name = options.queueName ?? 'ingest';
    const schema = options.schema ?? 'pgboss';
    this.sql = new QueueSql(options.pool, schema, this.name);
    const { pool } = options;
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema,
      schedule: false, // no cron jobs: nothing here is scheduled
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 15,
      // Ended rows move to pgboss.archive after an hour (pg-boss: 12 h): each take scans the queue's rows for whose
      // turn it is, and a user idle for an hour comes back as a newcomer anyway, as in the embedded queue.
      archiveCompletedAfterSeconds: 3600,
    });
    this.boss.on('error', (error) => this.logger.error('pg-boss maintenance failed', { error: String(error) }));
  }

  /** Creates or migrates pg-boss's schema and the queue (safe when instances start together), then starts polling. */
  start(): Promise<void> {
    this.ready ??= this.open();
    return this.ready;
  }

  private async open(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(this.name, { name: this.name, policy: 'standard', ...this.retry, expireInSeconds: this.leaseSeconds });
    await this.boss.updateQueue(this.name, { name: this.name, ...this.retry, expireInSeconds: this.leaseSeconds });
    this.started = true;
    if (this.work) this.wake();
  }

  enqueue(job: QueuedJob): void {
    if (this.stopped) return;
    if (!this.ready) throw new Error('PgBossJobQueue: call start() before enqueue');
    this.command('enqueue', job.id, async () => {
      const bossId = bossIdOf(job.id);
      const sent = await this.boss.send(this.name, { jobId: job.id, userId: job.userId }, { id: bossId });
      if (sent === null) await this.sql.revive(bossId); // its row exists: waiting or running stays, ended waits again
    });
    this.wake();
  }

  cancel(jobId: string): void {
    if (!this.ready) throw new Error('PgBossJobQueue: call start() before cancel');
    const bossId = bossIdOf(jobId);
    this.running.get(bossId)?.controller.abort(new JobStoppedError('cancelled'));
    // Also for a job running here: the cancelled row keeps any process from taking it again.
    this.command('cancel', jobId, () => this.boss.cancel(this.name, bossId));
  }

  /** Resolves when no job waits or runs in any process sharing the queue (tests, benchmarks). */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.commands;
      if (this.running.size === 0 && (await this.sql.isIdle())) return;
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
    if (this.ready) await this.ready.then(() => this.boss.stop({ graceful: false, close: false }), () => {});
  }

  private command(what: string, jobId: string, run: () => Promise<unknown>): void {
    this.commands = this.commands.then(() => this.ready).then(run).then(
      () => undefined,
      // No work is lost: an unsent job's record stays queued and ResumeIngestion sends it again once it is older than
      // the lease; a job whose cancel failed finds its session gone at its next write and stops.
      (error) => this.logger.error(`could not ${what} the job in pg-boss`, { jobId, error: String(error) }),
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
      await this.watchRunning();
      const free = this.concurrency - this.running.size;
      if (free <= 0 || this.stopped) return;
      for (const job of await this.sql.take(free, this.perUser, this.leaseSeconds)) this.run(job);
    } catch (error) {
      this.logger.error('could not poll the job queue', { error: String(error) });
    }
  }

  /** Aborts running jobs cancelled elsewhere or taken from us; renews the others' lease every third of it. */
  private async watchRunning(): Promise<void> {
    const jobs = [...this.running.values()];
    if (jobs.length === 0) return;
    const states = await this.sql.check(jobs);
    for (const job of jobs) {
      const state = states.get(job.bossId);
      if (state === 'cancelled') job.controller.abort(new JobStoppedError('cancelled'));
      // Its lease expired and another process may run it now: stop here, as at a shutdown, leaving the record unfinished.
      else if (state === 'lost') job.controller.abort(new JobStoppedError('shutdown'));
    }
    if (Date.now() - this.lastRenewal >= (this.leaseSeconds * 1000) / 3) {
      await this.sql.renew(jobs.filter((job) => !job.controller.signal.aborted), this.leaseSeconds);
      this.lastRenewal = Date.now();
    }
  }

  private run(job: TakenJob): void {
    const controller = new AbortController();
    if (this.stopped) controller.abort(new JobStoppedError('shutdown'));
    const entry: Running = { ...job, controller, done: Promise.resolve() };
    this.running.set(job.bossId, entry);
    entry.done = this.runToEnd(entry);
  }

  private async runToEnd(entry: Running): Promise<void> {
    let failure: unknown;
    try {
      if (!entry.controller.signal.aborted) await this.handler(entry.jobId, entry.controller.signal);
    } catch (error) {
      failure = error;
      this.logger.error('ingest job crashed', { jobId: entry.jobId, error: String(error) });
    }
    try {
      const reason = entry.controller.signal.reason as unknown;
      if (reason instanceof JobStoppedError && reason.why === 'shutdown') await this.sql.release(entry);
      else if (failure !== undefined) await this.boss.fail(this.name, entry.bossId, { message: String(failure) }); // retried with backoff
      else await this.sql.complete(entry);
    } catch (error) {
      // Its lease runs out and pg-boss retries it: the handler is idempotent.
      this.logger.error('could not record the end of a job in pg-boss', { jobId: entry.jobId, error: String(error) });
    } finally {
      this.running.delete(entry.bossId);
      this.wake();
    }
  }
}
