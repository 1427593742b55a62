import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { AnswerWorkerData, PoolResult, PoolTask } from './pool-task.js';
import { QueueFullError, ThreadPool } from './thread-pool.js';

export interface AnswerPoolOptions {
  /** Worker threads (default: defaultPoolThreads()). */
  threads?: number;
  /** Tasks handed to one thread at once (default DEFAULT_THREAD_TASKS; see ThreadPool). */
  tasksPerThread?: number;
  /** Tasks that may wait for a thread; one more is refused (503) rather than queued without end. */
  maxQueued: number;
  /**
   * How much lower the threads' scheduling priority is than the request thread's (nice value added, Linux; default
   * DEFAULT_THREAD_NICE): cheap requests first, answers on the CPU they leave.
   */
  nice?: number;
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
  /**
   * The embedded SQLite database whose lexical index the threads search, each through a read-only connection of its
   * own, for 'question' tasks (retrieval and answer in one task: PooledGroundedAnswerer). Without it they cannot run.
   */
  sqliteFile?: string;
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
 * keeps serving cheap requests meanwhile (thread-pool.ts): a bounded queue, first come first served within a user and
 * in turns between users (fair-queue.ts), a task aborted while waiting leaves
 * the queue, one aborted while running has its thread terminated and replaced, and a thread that dies fails only the
 * task it was running and is replaced too.
 */
export class AnswerPool {
  private readonly pool: ThreadPool;

  constructor(private readonly options: AnswerPoolOptions) {
    const threads = options.threads ?? defaultPoolThreads();
    const { threadFile, taskModule, execArgv } = workerModule(options.workerFile);
    this.pool = new ThreadPool({
      threads,
      stageDepth: options.tasksPerThread ?? DEFAULT_THREAD_TASKS,
      maxWaiting: options.maxQueued,
      minThreads: Math.min(threads, options.minThreads ?? threads),
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      threadFile, taskModule, execArgv,
      nice: options.nice ?? DEFAULT_THREAD_NICE,
      workerData: { plugins: options.plugins, sqliteFile: options.sqliteFile } satisfies AnswerWorkerData,
    });
  }

  /** `group`: whose task it is (the user); waiting tasks of different groups are handed to threads in turns. */
  async run<T extends PoolResult>(task: PoolTask, signal?: AbortSignal, group?: string): Promise<T> {
    try {
      return (await this.pool.run(task, signal, group)) as T;
    } catch (error) {
      if (error instanceof QueueFullError) {
        this.options.onQueueFull?.();
        throw new AnswerQueueFullError();
      }
      throw error;
    }
  }

  stats(): AnswerPoolStats {
    const { threads, running, waiting } = this.pool.stats();
    return { threads, inFlight: running, queued: waiting };
  }

  /** Seconds its threads sat idle with questions waiting, until the request thread gave them the next (ThreadPool). */
  handOffWaitSeconds(): number {
    return this.pool.handOffWaitSeconds();
  }

  /** The worker threads' ids (tests: a crashed thread is replaced by a new one). */
  threadIds(): number[] {
    return this.pool.threadIds();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * Tasks one thread holds at once (see ThreadPool): the one it runs and the next ones. With more than one, a thread goes
 * on while the request thread, busy with other requests, has not yet taken its last result; but on 2 cores the busier
 * threads then take CPU from the request thread. bench/chat-under-load.ts, embedded, 25 chat + 25 history clients on
 * 2 cores, when a question's retrieval still ran on the request thread: 1 task gave history p99 43 ms and 30 chat
 * req/s, 4 tasks 88 ms and 82 req/s. With the whole question on the threads (the search, the hits' copies to the
 * thread and the sources' excerpts left the request thread: ~2.4 ms of it remain per question), 1 task left the
 * threads idle 52-68 % of a thread waiting for the hand-off
 * (doc_chat_pool_handoff_wait_seconds) and 2 tasks none: 2 (figures taken on a shared machine: indicative).
 */
export const DEFAULT_THREAD_TASKS = 2;

/**
 * How much lower the answer threads' priority is on the embedded stack (see AnswerPoolOptions.nice). Busy answering,
 * two threads on 2 cores beside the request thread and a client left the request thread waiting for a CPU: at the same
 * priority (0) a history request waited its turn behind a thread's time slice, again and again (issue 48).
 * bench/history-under-load.ts, 5 users × (5 askers + 5 history readers), the load client in its own process, 2 cores
 * shared with other work (A/B back to back, three rounds each): at 0 the request thread waited runnable 79-85 % of
 * the time, history p99 295-518 ms; at 5, 53-74 %, p99 74-240 ms, chat req/s as at 0 (5.0-13.1 against 6.6-11.7);
 * at 10, p99 138-208 ms but chat 4.1-4.7 req/s (the threads then lose the CPU to every other process too).
 */
export const DEFAULT_THREAD_NICE = 5;

/**
 * The niceness where the records are in PostgreSQL. There a history page is a round trip to the database, whose
 * backends compete for the same cores as the answer threads. bench/chat-under-load.ts, PostgreSQL, 25 chat + 25
 * history clients on 2 cores: at 10, history p99 37 ms (one user) / 37 ms (five users); bench/pg-history-cost.ts at
 * the same priority: 86-190 ms. The closed-loop history clients then take the CPU the answers leave (chat 61.5 → 37-40
 * req/s in that bench); with history held at 100 req/s chat rose (58.3 → 87-100 req/s).
 */
export const SHARED_DATABASE_THREAD_NICE = 10;

/**
 * Where the thread's modules are and how to load them: compiled (dist/), the .js beside this file; from the TypeScript
 * sources (tests, tsx), the .ts, in a thread that loads tsx first.
 */
function workerModule(workerFile: string | undefined): { threadFile: string; taskModule: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const extension = here.endsWith('.ts') ? '.ts' : '.js';
  const threadFile = path.join(path.dirname(here), `pool-thread${extension}`);
  const taskModule = workerFile ?? path.join(path.dirname(here), `answer-worker${extension}`);
  const loaders = moduleLoadingOptions(process.execArgv);
  if (extension === '.js' && !taskModule.endsWith('.ts')) return { threadFile, taskModule, execArgv: loaders };
  const hasTsx = loaders.some((arg) => arg.includes('tsx'));
  return { threadFile, taskModule, execArgv: hasTsx ? loaders : [...loaders, '--import', 'tsx'] };
}

/** Options that take their value as the next argument when written without '='. */
const LOADER_OPTIONS_WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);

/**
 * The process's module-loading options (a TypeScript loader, conditions), which threads need too. Not the rest: a
 * Worker refuses V8 and per-process options (the service runs with --max-semi-space-size and --expose-gc, see
 * server/node-flags.ts), and V8's flags apply to its threads anyway.
 */
export function moduleLoadingOptions(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    const name = arg.split('=')[0];
    if (LOADER_OPTIONS_WITH_VALUE.has(name)) {
      kept.push(arg);
      if (!arg.includes('=') && i + 1 < execArgv.length) kept.push(execArgv[++i]);
    } else if (name === '--no-experimental-require-module' || name === '--enable-source-maps' || name === '--experimental-strip-types') {
      kept.push(arg);
    }
  }
  return kept;
}
