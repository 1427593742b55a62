import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { PoolResult, PoolTask } from './pool-task.js';

export interface AnswerPoolOptions {
  /** Worker threads (default: defaultPoolThreads()). */
  threads?: number;
  /** Tasks that may wait for a thread; one more is refused (503) rather than queued without end. */
  maxQueued: number;
  /** The worker module (default: answer-worker beside this file). Tests give one that can crash or hang. */
  workerFile?: string;
  /** Told of each task refused because the queue was full (for the metrics). */
  onQueueFull?: () => void;
  /**
   * Threads kept while idle (default: all of them). The service keeps none, so that an idle instance does not hold
   * their heaps (≈ 30 MB a thread): they start with the first questions and end after `idleTimeoutMs` without work.
   */
  minThreads?: number;
  /** How long a thread above minThreads lives without work (default 60 s). */
  idleTimeoutMs?: number;
  /** Answer plug-ins the threads' extractive answerer is built with (adapters/answer-plugins; default: their default). */
  plugins?: readonly string[];
}

export interface AnswerPoolStats {
  threads: number;
  /** Tasks running on a thread. */
  inFlight: number;
  /** Tasks waiting for a thread. */
  queued: number;
}

/**
 * cores − 1 leaves the request thread a core on a large machine; at least 2, because on 2 cores one thread shared the
 * CPU with the request thread and halved the answers served under load (bench/chat-under-load.ts: 14.8 → 29.7 chat
 * req/s with 2 threads, history p99 33 → 36 ms).
 */
export const defaultPoolThreads = (): number => Math.max(2, os.availableParallelism() - 1);

/** The task queue is full: the service is overloaded for now (503), not broken. */
export class AnswerQueueFullError extends UpstreamUnavailableError {
  constructor() {
    super('answer pool', 'Too many questions are waiting to be answered; try again shortly');
  }
}

/**
 * Worker threads that run the CPU work of questions (adapters/answer-pool/pool-task.ts), so that the request thread
 * keeps serving cheap requests meanwhile. piscina runs them: a bounded FIFO queue, a task aborted while waiting leaves
 * the queue, one aborted while running has its thread terminated and replaced, and a thread that dies fails only the
 * task it was running and is replaced too.
 */
export class AnswerPool {
  private readonly piscina: Piscina;
  private readonly maxQueued: number;
  private pending = 0;

  constructor(private readonly options: AnswerPoolOptions) {
    const threads = options.threads ?? defaultPoolThreads();
    const { filename, execArgv } = workerModule(options.workerFile);
    this.maxQueued = options.maxQueued;
    this.piscina = new Piscina({
      filename,
      execArgv,
      minThreads: Math.min(threads, options.minThreads ?? threads),
      maxThreads: threads,
      // The bound is checked in run() (so the refusal is ours to name and count); this is only the backstop.
      maxQueue: options.maxQueued + threads,
      // Each task is a few milliseconds of CPU: one at a time per thread keeps the FIFO order fair.
      concurrentTasksPerWorker: 1,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      workerData: { plugins: options.plugins },
    });
  }

  async run<T extends PoolResult>(task: PoolTask, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.piscina.queueSize >= this.maxQueued) {
      this.options.onQueueFull?.();
      throw new AnswerQueueFullError();
    }
    this.pending++;
    try {
      return (await this.piscina.run(task, { signal })) as T;
    } catch (error) {
      // piscina's AbortError says little: the caller's own reason (the client left) is what happened.
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      this.pending--;
    }
  }

  stats(): AnswerPoolStats {
    const queued = this.piscina.queueSize;
    return { threads: this.piscina.threads.length, inFlight: Math.max(0, this.pending - queued), queued };
  }

  /** The worker threads' ids (tests: a crashed thread is replaced by a new one). */
  threadIds(): number[] {
    return this.piscina.threads.map((thread) => thread.threadId);
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

/**
 * Where the worker module is and how to load it: compiled (dist/), the .js beside this file; from the TypeScript
 * sources (tests, tsx), the .ts, in a thread that loads tsx first.
 */
function workerModule(workerFile: string | undefined): { filename: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith('.ts');
  const filename = workerFile ?? path.join(path.dirname(here), `answer-worker${typescript ? '.ts' : '.js'}`);
  if (!filename.endsWith('.ts')) return { filename, execArgv: process.execArgv };
  const hasTsx = process.execArgv.some((arg) => arg.includes('tsx'));
  return { filename, execArgv: hasTsx ? process.execArgv : [...process.execArgv, '--import', 'tsx'] };
}
