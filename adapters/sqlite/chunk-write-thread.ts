import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CHUNK_INSERT_SQL, CHUNK_REMOVE_SQL } from './chunk-rows.js';

/** A chunk row as the `chunks` table takes it (ChunkRow plus the institution column). */
export type ChunkInsert = Record<string, string | number | null>;

/** A thread with no write for this long stops; the next write starts another (~30 ms). */
const DEFAULT_IDLE_MS = 30_000;

/**
 * The writer thread: its own connection to the same file. Each batch is one IMMEDIATE transaction (the write lock is
 * taken first), and the batch's cancel flag is read only once the lock is held: a session deletion sets the flag
 * before its DELETE, so either this batch commits before that DELETE runs, or it sees the flag and writes nothing.
 * Plain CommonJS, so it runs the same from the sources (tests) and from dist/.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
const remove = db.prepare(workerData.removeSql);
const insert = db.prepare(workerData.insertSql);
const write = db.transaction((rows, cancelled) => {
  if (Atomics.load(cancelled, 0) === 1) return false;
  for (const row of rows) { remove.run(row.id); insert.run(row); }
  return true;
});
parentPort.on('message', (message) => {
  if (message === 'stop') { db.close(); process.exit(0); }
  try {
    parentPort.postMessage({ id: message.id, written: write.immediate(message.rows, message.cancelled) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message || error), code: error && error.code });
  }
});
`;

type Waiter = { resolve: (written: boolean) => void; reject: (error: Error) => void };

/** One running writer thread and the writes it has not answered yet. */
interface Writer {
  worker: Worker;
  waiting: Map<number, Waiter>;
  exited: Promise<unknown>;
}

/**
 * Writes chunk rows (and through the table's triggers, the FTS5 index) on a worker thread. FTS5 inserts, and the
 * segment merges some of them set off (up to 15 ms), were two fifths of the server's busy time while a long document
 * was indexed, and each ran on the thread that answers every request. Readers on the server's connection see a batch
 * once it commits (WAL). Only for a database file: an in-memory database cannot be shared between connections.
 *
 * The thread runs only while there is writing to do: it starts with the first write and stops after `idleMs` without
 * one. A worker thread (its V8 heap, its connection's page cache) is ~12 MB the server would otherwise hold all the
 * time for work that comes in bursts (a document's ingestion). A thread that fails rejects its writes in flight; the
 * next write starts a new one.
 */
export class ChunkWriteThread {
  private writer: Writer | undefined;
  /** Threads told to stop that may not have exited yet: close() waits for them. */
  private readonly stopping = new Set<Promise<unknown>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;
  /** Threads started so far (for tests and diagnostics). */
  started = 0;

  private readonly idleMs: number;

  constructor(
    private readonly file: string,
    idleMs?: number,
  ) {
    this.idleMs = idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Whether a thread runs now. */
  get running(): boolean {
    return this.writer !== undefined;
  }

  /**
   * Writes the rows in one transaction, replacing rows of the same id. Resolves to false, having written nothing,
   * when `signal` was aborted before the transaction held the write lock.
   */
  write(rows: ChunkInsert[], signal?: AbortSignal): Promise<boolean> {
    if (this.closed) return Promise.reject(new Error('The chunk writer thread was closed'));
    clearTimeout(this.idleTimer);
    const writer = (this.writer ??= this.start());
    const cancelled = new Int32Array(new SharedArrayBuffer(4));
    const cancel = () => Atomics.store(cancelled, 0, 1);
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      writer.waiting.set(id, { resolve, reject });
      writer.worker.ref(); // a write in flight keeps the program alive; an idle thread does not
      writer.worker.postMessage({ id, rows, cancelled });
    }).finally(() => signal?.removeEventListener('abort', cancel));
  }

  /** Stops the thread once the writes sent before have ended; later writes are refused. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    if (this.writer) this.stop(this.writer);
    await Promise.all(this.stopping);
  }

  private start(): Writer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.file, removeSql: CHUNK_REMOVE_SQL, insertSql: CHUNK_INSERT_SQL },
    });
    this.started++;
    const writer: Writer = { worker, waiting: new Map(), exited: new Promise((resolve) => worker.once('exit', resolve)) };
    worker.on('message', (reply: { id: number; written?: boolean; error?: string; code?: string }) => {
      const waiter = writer.waiting.get(reply.id);
      writer.waiting.delete(reply.id);
      if (writer.waiting.size === 0) this.idle(writer);
      // The driver's code (e.g. SQLITE_FULL) goes with the message: what failed decides what the job's failure says.
      if (reply.error !== undefined) waiter?.reject(Object.assign(new Error(`Writing chunks failed: ${reply.error}`), reply.code ? { code: reply.code } : {}));
      else waiter?.resolve(reply.written === true);
    });
    worker.on('error', (error) => this.fail(writer, new Error(`The chunk writer thread stopped: ${error.message}`, { cause: error })));
    worker.on('exit', () => this.fail(writer, new Error('The chunk writer thread exited')));
    return writer;
  }

  /** No write in flight: the thread no longer keeps the program alive, and stops if none comes for idleMs. */
  private idle(writer: Writer): void {
    if (writer !== this.writer) return; // stopping: stays ref'd until it has exited (see stop)
    writer.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.writer === writer && writer.waiting.size === 0) this.stop(writer);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Asks the thread to stop after the writes already sent to it (the worker answers messages in order). */
  private stop(writer: Writer): void {
    if (this.writer === writer) this.writer = undefined;
    writer.worker.ref(); // held until it is gone: a program awaiting close() must not end with that await unsettled
    writer.worker.postMessage('stop');
    this.stopping.add(writer.exited);
    void writer.exited.then(() => this.stopping.delete(writer.exited));
  }

  /** The thread is gone (stopped, or crashed): its unanswered writes fail; the next write starts another. */
  private fail(writer: Writer, error: Error): void {
    if (this.writer === writer) this.writer = undefined;
    for (const waiter of writer.waiting.values()) waiter.reject(error);
    writer.waiting.clear();
  }
}
