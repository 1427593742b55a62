import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the write-ahead log back into the database file. */
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * The checkpointer thread: its own connection to the same file. A PASSIVE checkpoint never waits for the server's
 * readers or writers; what it cannot copy yet is copied at the next one. Plain CommonJS, so it runs the same from the
 * sources (tests) and from dist/.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next round tries again */ }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/**
 * Copies SQLite's write-ahead log into the database file on a worker thread. SQLite's own automatic checkpoint runs
 * inside the commit that crosses 1,000 log pages, on the server's only thread: while a long document was indexed,
 * one commit in a hundred then held every request for 70–90 ms (fsync included). The server's connection is opened
 * with wal_autocheckpoint = 0 and this thread takes over; close() stops it (the last checkpoint happens when the
 * server's connection closes).
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;

  constructor(file: string, everyMs = CHECKPOINT_EVERY_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs } });
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.unref(); // never keeps a finished program alive
    // A checkpointer that dies only lets the log grow until the connection closes: worth a line, not a crash.
    this.worker.on('error', (error) => process.emitWarning(`SQLite checkpoint thread stopped: ${error.message}`));
  }

  async close(): Promise<void> {
    // Held until it is gone: unref'd, a program whose last work is awaiting close() would end with that await unsettled.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
