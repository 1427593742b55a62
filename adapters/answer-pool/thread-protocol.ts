/** Messages between the answer pool (thread-pool.ts) and its threads (pool-thread.ts). */

/**
 * A task's state in the shared flags: the thread claims it (waiting → started) and marks it finished before it
 * replies; the pool takes it back (waiting → withdrawn). Both sides read the flags without waiting for each other.
 */
export const CLAIM = { waiting: 0, withdrawn: 1, started: 2, finished: 3 } as const;

export interface ThreadStartData {
  /** One Int32 per slot (CLAIM values), shared by the pool and all its threads. */
  flags: SharedArrayBuffer;
  /** Absolute path of the module whose default export runs one task. */
  taskModule: string;
  /** How much lower than the request thread's each thread's scheduling priority is (nice value added; 0: the same). */
  nice: number;
}

export interface StagedTask {
  /** Names this posting in the reply. */
  post: number;
  slot: number;
  task: unknown;
}

/** What a thread says of a task. */
export type ThreadAnswer =
  | { post: number; result: unknown }
  | { post: number; error: { name: string; message: string; stack?: string } }
  /** The task was withdrawn before the thread reached it. */
  | { post: number; skipped: true };

export type ThreadReply = ThreadAnswer & {
  /** When the thread sent it (performance.timeOrigin + performance.now(): one clock for all threads), in ms. */
  at: number;
};
