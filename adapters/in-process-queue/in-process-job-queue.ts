import { JobStoppedError } from '../../core/domain/errors.js';
import { countedAgainstLimit, type JobHandler, type JobQueue, type QueuedJob } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';

export interface InProcessJobQueueOptions {
  /** Jobs running at once, all users together (up to as many finishing ones aside, see JobQueue). */
  concurrency: number;
  /** Jobs of one user running at once. Default 1: a user's second document waits rather than take another user's turn. */
  perUser?: number;
}

interface Entry extends QueuedJob {
  controller: AbortController;
  /** The handler said the job is in its tail (see JobHandler). */
  finishing: boolean;
}

interface UserTurn {
  /** Waiting jobs, oldest first. */
  line: Entry[];
  running: number;
  /** Of those, jobs in their tail: up to the per-user limit of them are not counted against it. */
  finishing: number;
  /** When this user last had a job started (a sequence number); 0 until then. Lowest goes first. */
  lastServed: number;
}

/**
 * Runs jobs in this process, fairly across users: each user has a FIFO of waiting jobs, and a free slot goes to the
 * user below the per-user limit whose job started least recently (a user with nothing started yet goes first), so
 * users take turns and a newcomer waits at most for the documents already in progress. Jobs in their tail (the
 * handler called `finishing`) are not counted, up to as many as each limit: see countedAgainstLimit. Holds only ids: the
 * jobs are durable in the IngestJobRepo and unfinished ones are enqueued again at start, so losing this queue loses
 * no work.
 */
export class InProcessJobQueue implements JobQueue {
  /** Users with waiting or running jobs, in the order they arrived (ties of lastServed go to the earlier one). */
  private readonly users = new Map<string, UserTurn>();
  private readonly running = new Map<string, Entry>();
  private readonly concurrency: number;
  private readonly perUser: number;
  private served = 0;
  /** Running jobs in their tail, all users together. */
  private finishing = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handler: JobHandler,
    options: InProcessJobQueueOptions,
    private readonly logger: Logger,
  ) {
    const { concurrency, perUser = 1 } = options;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    if (!Number.isInteger(perUser) || perUser < 1) throw new RangeError('perUser must be a positive integer');
    this.concurrency = concurrency;
    this.perUser = perUser;
  }

  enqueue(job: QueuedJob): void {
    if (this.stopped || this.running.has(job.id) || this.findWaiting(job.id)) return;
    let turn = this.users.get(job.userId);
    if (!turn) {
      turn = { line: [], running: 0, finishing: 0, lastServed: 0 };
      this.users.set(job.userId, turn);
    }
    turn.line.push({ id: job.id, userId: job.userId, controller: new AbortController(), finishing: false });
    this.pump();
  }

  cancel(jobId: string): void {
    const running = this.running.get(jobId);
    if (running) {
      running.controller.abort(new JobStoppedError('cancelled'));
      return;
    }
    const found = this.findWaiting(jobId);
    if (!found) return;
    found.turn.line.splice(found.index, 1);
    this.forgetIfDone(found.userId);
    this.notifyIfIdle();
  }

  /** Runs from construction; here so that every queue is started and stopped alike (the shared one needs it). */
  async start(): Promise<void> {}

  /** Resolves when nothing is waiting or running (tests, benchmarks). */
  whenIdle(): Promise<void> {
    if (this.users.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Takes no new jobs, drops the waiting ones and aborts the running ones (shutdown), then waits for them to stop.
   * Their records stay unfinished, so they resume at the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const [userId, turn] of this.users) {
      turn.line.length = 0;
      this.forgetIfDone(userId);
    }
    for (const entry of this.running.values()) entry.controller.abort(new JobStoppedError('shutdown'));
    this.notifyIfIdle();
    await this.whenIdle();
  }

  private pump(): void {
    while (!this.stopped && countedAgainstLimit(this.concurrency, this.running.size, this.finishing) < this.concurrency) {
      const entry = this.takeNext();
      if (!entry) return;
      this.running.set(entry.id, entry);
      void this.run(entry);
    }
  }

  /** The oldest waiting job of the least recently served user below the per-user limit. */
  private takeNext(): Entry | undefined {
    let next: UserTurn | undefined;
    for (const turn of this.users.values()) {
      if (turn.line.length === 0 || countedAgainstLimit(this.perUser, turn.running, turn.finishing) >= this.perUser) continue;
      if (!next || turn.lastServed < next.lastServed) next = turn;
    }
    if (!next) return undefined;
    next.running += 1;
    next.lastServed = ++this.served;
    return next.line.shift();
  }

  private async run(entry: Entry): Promise<void> {
    try {
      await this.handler(entry.id, entry.controller.signal, () => this.markFinishing(entry));
    } catch (error) {
      this.logger.error('ingest job crashed', { jobId: entry.id, error: String(error) });
    } finally {
      this.running.delete(entry.id);
      const turn = this.users.get(entry.userId);
      if (turn) turn.running -= 1;
      if (entry.finishing) {
        this.finishing -= 1;
        if (turn) turn.finishing -= 1;
      }
      this.forgetIfDone(entry.userId);
      this.pump();
      this.notifyIfIdle();
    }
  }

  /** The job no longer needs its slot: the next one may start beside it. */
  private markFinishing(entry: Entry): void {
    if (entry.finishing || !this.running.has(entry.id)) return;
    entry.finishing = true;
    this.finishing += 1;
    const turn = this.users.get(entry.userId);
    if (turn) turn.finishing += 1;
    this.pump();
  }

  /** A user with nothing waiting or running is forgotten: coming back later, they are a newcomer again. */
  private forgetIfDone(userId: string): void {
    const turn = this.users.get(userId);
    if (turn && turn.line.length === 0 && turn.running === 0) this.users.delete(userId);
  }

  private findWaiting(jobId: string): { userId: string; turn: UserTurn; index: number } | undefined {
    for (const [userId, turn] of this.users) {
      const index = turn.line.findIndex((e) => e.id === jobId);
      if (index >= 0) return { userId, turn, index };
    }
    return undefined;
  }

  private notifyIfIdle(): void {
    if (this.users.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }
}

