import { Worker } from 'node:worker_threads';
import { FairQueue } from './fair-queue.js';
import { CLAIM, type StagedTask, type ThreadReply, type ThreadStartData } from './thread-protocol.js';

export interface ThreadPoolOptions {
  threads: number;
  /** Tasks handed to one thread at once: the one it runs and those it starts next without waiting for the pool. */
  stageDepth: number;
  /** Tasks not yet started (waiting here or handed to a thread) beyond which run() refuses (QueueFullError). */
  maxWaiting: number;
  /** Threads kept while idle; the others end after `idleTimeoutMs` without a task. */
  minThreads: number;
  idleTimeoutMs: number;
  /** pool-thread.js (or .ts with a loader in execArgv). */
  threadFile: string;
  /** Module whose default export runs one task, in the thread. */
  taskModule: string;
  execArgv: string[];
  /** Added to each thread's nice value (see pool-thread.ts); 0 or absent: the process's priority. */
  nice?: number;
  /** Given to every thread as workerData (beside the pool's own `pool` field). */
  workerData?: Record<string, unknown>;
}

export class QueueFullError extends Error {}

interface Job {
  task: unknown;
  /** Whose task it is: waiting tasks are handed out in turns between groups (FairQueue). */
  group: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  settled: boolean;
  /** Set while the job is handed to a thread. */
  staged?: { thread: Thread; slot: number; post: number };
  detach(): void;
}

/** A task handed to a thread. Withdrawn, it loses its job but keeps its slot until the thread skips it (or ends). */
interface Posting {
  slot: number;
  job?: Job;
}

interface Thread {
  worker: Worker;
  /** Postings not yet answered, in the order they were posted. */
  postings: Map<number, Posting>;
  idleTimer?: NodeJS.Timeout;
  /** Ended on purpose: its exit fails nothing. */
  ending: boolean;
  /** It has answered or claimed a task: it loaded. A thread that ends before that failed to start. */
  loaded: boolean;
}

/**
 * Worker threads fed ahead of time. Each thread holds up to `stageDepth` tasks and starts the next one itself when it
 * finishes one, so a busy request thread (which takes the results) never leaves the workers idle between tasks. A task
 * is claimed through shared flags when it starts: one still waiting at a thread can be withdrawn at once (cancelled,
 * or moved to a thread that has run dry); one that runs is stopped by ending its thread. piscina hands an abortable
 * task only to an otherwise empty thread (aborting ends the thread), so under load its threads sat idle waiting for
 * the request thread to take each result: the reason this pool exists.
 */
export class ThreadPool {
  private readonly threads = new Set<Thread>();
  private readonly queue = new FairQueue<Job>();
  private readonly flags: Int32Array;
  private readonly freeSlots: number[];
  private nextPost = 1;
  private closed = false;
  /** See handOffWaitSeconds(). */
  private handOffWait = 0;

  constructor(private readonly options: ThreadPoolOptions) {
    const slots = options.threads * options.stageDepth * 2; // a withdrawn posting holds its slot until the thread skips it
    this.flags = new Int32Array(new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT));
    this.freeSlots = Array.from({ length: slots }, (_, i) => slots - 1 - i);
    for (let i = 0; i < options.minThreads; i++) this.startThread();
  }

  /** Runs `task` on a thread; tasks of different `group`s (users) waiting at once are handed out in turns. */
  run(task: unknown, signal?: AbortSignal, group = ''): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The answer pool is closed'));
    signal?.throwIfAborted();
    if (this.waitingCount() >= this.options.maxWaiting) return Promise.reject(new QueueFullError());
    return new Promise((resolve, reject) => {
      const onAbort = () => this.abort(job, signal!.reason);
      const job: Job = {
        task, group, settled: false, resolve, reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(group, job);
      this.dispatch();
    });
  }

  /** Threads alive; tasks running; tasks not yet started. */
  stats(): { threads: number; running: number; waiting: number } {
    let running = 0;
    for (const thread of this.threads) for (const { job, slot } of thread.postings.values()) if (job && this.flags[slot] === CLAIM.started) running++;
    return { threads: this.threads.size, running, waiting: this.waitingCount() };
  }

  threadIds(): number[] {
    return [...this.threads].map((thread) => thread.worker.threadId);
  }

  /**
   * Seconds threads sat idle, tasks waiting, until the request thread took their last result and gave them the next
   * one (counted from the result's sending; a task queued meanwhile counts from then too): the time staging more
   * tasks per thread (stageDepth) would win back, at the cost of busier threads.
   */
  handOffWaitSeconds(): number {
    return this.handOffWait;
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('The answer pool is closed');
    for (const job of this.queue.drain()) this.settle(job, () => job.reject(error));
    await Promise.all([...this.threads].map(async (thread) => {
      for (const { job } of thread.postings.values()) if (job) this.settle(job, () => job.reject(error));
      await this.endThread(thread);
    }));
  }

  private waitingCount(): number {
    let waiting = this.queue.length;
    for (const thread of this.threads) for (const { job, slot } of thread.postings.values()) if (job && this.flags[slot] === CLAIM.waiting) waiting++;
    return waiting;
  }

  /** Hands waiting tasks to threads: an idle or new thread first, then deeper stages; a thread that ran dry takes over another's waiting task. */
  private dispatch(): void {
    while (!this.closed && this.queue.length > 0) {
      const thread = this.threadWithRoom();
      if (!thread) break;
      this.stage(thread, this.queue.shift()!);
    }
    for (const idle of this.threads) {
      if (idle.ending || idle.postings.size > 0) continue;
      const moved = this.withdrawLastWaiting(idle);
      if (moved) this.stage(idle, moved);
    }
  }

  private threadWithRoom(): Thread | undefined {
    let best: Thread | undefined;
    for (const thread of this.threads) {
      if (!thread.ending && thread.postings.size < this.options.stageDepth && (!best || thread.postings.size < best.postings.size)) best = thread;
    }
    if ((!best || best.postings.size > 0) && this.threads.size < this.options.threads) return this.startThread();
    return best;
  }

  /** Takes back the last task still waiting at some other thread that has at least two (so it is not left idle). */
  private withdrawLastWaiting(except: Thread): Job | undefined {
    for (const thread of this.threads) {
      if (thread === except || thread.postings.size < 2) continue;
      for (const posting of [...thread.postings.values()].reverse()) {
        const job = posting.job;
        if (job && Atomics.compareExchange(this.flags, posting.slot, CLAIM.waiting, CLAIM.withdrawn) === CLAIM.waiting) {
          posting.job = undefined;
          job.staged = undefined;
          return job;
        }
      }
    }
    return undefined;
  }

  private stage(thread: Thread, job: Job): void {
    const slot = this.freeSlots.pop()!;
    const post = this.nextPost++;
    Atomics.store(this.flags, slot, CLAIM.waiting);
    job.staged = { thread, slot, post };
    thread.postings.set(post, { slot, job });
    clearTimeout(thread.idleTimer);
    thread.worker.postMessage({ post, slot, task: job.task } satisfies StagedTask);
  }

  private startThread(): Thread {
    const start: ThreadStartData = { flags: this.flags.buffer as SharedArrayBuffer, taskModule: this.options.taskModule, nice: this.options.nice ?? 0 };
    const worker = new Worker(this.options.threadFile, {
      execArgv: this.options.execArgv,
      workerData: { ...this.options.workerData, pool: start },
    });
    const thread: Thread = { worker, postings: new Map(), ending: false, loaded: false };
    this.threads.add(thread);
    worker.on('message', (reply: ThreadReply) => this.onReply(thread, reply));
    worker.on('error', () => {}); // the exit that follows says what is lost
    worker.on('exit', (code) => this.onExit(thread, code));
    this.whenIdle(thread);
    return thread;
  }

  private onReply(thread: Thread, reply: ThreadReply): void {
    thread.loaded = true;
    const posting = thread.postings.get(reply.post);
    if (!posting) return;
    thread.postings.delete(reply.post);
    this.freeSlots.push(posting.slot);
    if (thread.postings.size === 0 && this.queue.length > 0) this.handOffWait += Math.max(0, performance.timeOrigin + performance.now() - reply.at) / 1000;
    const job = posting.job;
    if (job) {
      job.staged = undefined;
      if ('result' in reply) this.settle(job, () => job.resolve(reply.result));
      else if ('error' in reply) this.settle(job, () => job.reject(Object.assign(new Error(reply.error.message), reply.error)));
    }
    this.whenIdle(thread);
    this.dispatch();
  }

  private onExit(thread: Thread, code: number): void {
    this.threads.delete(thread);
    clearTimeout(thread.idleTimer);
    const requeue: Job[] = [];
    const loaded = thread.loaded || [...thread.postings.values()].some(({ slot }) => this.flags[slot] >= CLAIM.started);
    for (const { job, slot } of thread.postings.values()) {
      this.freeSlots.push(slot);
      if (!job || job.settled) continue;
      const started = this.flags[slot] >= CLAIM.started;
      job.staged = undefined;
      // A crash fails the task it was running; tasks waiting behind it (or a task caught by ending the thread on
      // purpose) run again on another thread: they are pure computations. A thread that could not even load fails
      // what it was given, so a broken installation answers errors instead of starting threads without end.
      if (!thread.ending && !loaded) this.settle(job, () => job.reject(new Error(`An answer thread could not start (exit code ${code})`)));
      else if (started && !thread.ending) this.settle(job, () => job.reject(new Error(`An answer thread stopped (exit code ${code}) while answering`)));
      else requeue.push(job);
    }
    thread.postings.clear();
    for (const job of requeue.reverse()) this.queue.pushFront(job.group, [job]);
    if (loaded || thread.ending) while (!this.closed && this.threads.size < this.options.minThreads) this.startThread();
    this.dispatch();
  }

  private abort(job: Job, reason: unknown): void {
    if (job.settled) return;
    this.settle(job, () => job.reject(reason));
    this.queue.remove(job.group, job);
    const staged = job.staged;
    if (!staged) return;
    if (Atomics.compareExchange(this.flags, staged.slot, CLAIM.waiting, CLAIM.withdrawn) === CLAIM.waiting) {
      staged.thread.postings.get(staged.post)!.job = undefined;
      job.staged = undefined;
      this.dispatch();
      return;
    }
    // It runs: only ending its thread frees the thread now. The tasks waiting behind it go to other threads.
    void this.endThread(staged.thread);
  }

  private async endThread(thread: Thread): Promise<void> {
    thread.ending = true;
    clearTimeout(thread.idleTimer);
    await thread.worker.terminate();
  }

  private whenIdle(thread: Thread): void {
    clearTimeout(thread.idleTimer);
    if (thread.postings.size > 0 || thread.ending) return;
    thread.idleTimer = setTimeout(() => {
      if (thread.postings.size === 0 && this.threads.size > this.options.minThreads) void this.endThread(thread);
    }, this.options.idleTimeoutMs);
    thread.idleTimer.unref();
  }

  private settle(job: Job, answer: () => void): void {
    if (job.settled) return;
    job.settled = true;
    job.detach();
    answer();
  }
}
