import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CHUNK_INSERT_SQL, CHUNK_REMOVE_SQL } from './chunk-rows.js';

/** A chunk row as the `chunks` table takes it (ChunkRow plus the institution column). */
export type ChunkInsert = Record<string, string | number | null>;

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
    parentPort.postMessage({ id: message.id, error: String(error && error.message || error) });
  }
});
`;

/**
 * Writes chunk rows (and through the table's triggers, the FTS5 index) on a worker thread. FTS5 inserts, and the
 * segment merges some of them set off (up to 15 ms), were two fifths of the server's busy time while a long document
 * was indexed, and each ran on the thread that answers every request. Readers on the server's connection see a batch
 * once it commits (WAL). Only for a database file: an in-memory database cannot be shared between connections.
 */
export class ChunkWriteThread {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;
  private readonly waiting = new Map<number, { resolve: (written: boolean) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(file: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, removeSql: CHUNK_REMOVE_SQL, insertSql: CHUNK_INSERT_SQL },
    });
    this.worker.unref(); // only a write in flight keeps the program alive (see write)
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.on('message', (reply: { id: number; written?: boolean; error?: string }) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      if (reply.error !== undefined) waiter?.reject(new Error(`Writing chunks failed: ${reply.error}`));
      else waiter?.resolve(reply.written === true);
    });
    this.worker.on('error', (error) => this.fail(new Error(`The chunk writer thread stopped: ${error.message}`, { cause: error })));
    this.worker.on('exit', () => this.fail(new Error('The chunk writer thread exited')));
  }

  /**
   * Writes the rows in one transaction, replacing rows of the same id. Resolves to false, having written nothing,
   * when `signal` was aborted before the transaction held the write lock.
   */
  write(rows: ChunkInsert[], signal?: AbortSignal): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    const cancelled = new Int32Array(new SharedArrayBuffer(4));
    const cancel = () => Atomics.store(cancelled, 0, 1);
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, rows, cancelled });
    }).finally(() => signal?.removeEventListener('abort', cancel));
  }

  /** Stops the thread once the writes sent before have ended. */
  async close(): Promise<void> {
    if (this.failure) return;
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}
