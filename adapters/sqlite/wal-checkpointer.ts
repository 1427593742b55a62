import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the write-ahead log back into the database file, and how often the log is looked at. */
const CHECKPOINT_EVERY_MS = 1_000;
/** A thread that found nothing new to copy for this long stops. */
const DEFAULT_IDLE_MS = 30_000;

/**
 * The checkpointer thread: its own connection to the same file. A PASSIVE checkpoint never waits for the server's
 * readers or writers; what it cannot copy yet is copied at the next one. Once every frame of the log is copied and
 * the log has not changed for idleMs, it reports the log's stamp (taken before that last checkpoint, so a write
 * landing during it changes the stamp) and exits. Plain CommonJS, so it runs the same from the sources (tests) and
 * from dist/.
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const stampOf = (file) => { try { const s = fs.statSync(file); return s.mtimeMs + ':' + s.size; } catch { return 'none'; } };
let last;
let quietSince = Date.now();
const timer = setInterval(() => {
  const stamp = stampOf(workerData.file + '-wal');
  let copied = false;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    copied = result.busy === 0 && result.log === result.checkpointed;
  } catch { /* busy or closing: the next round tries again */ }
  if (!copied || stamp !== last) { last = stamp; quietSince = Date.now(); return; }
  if (Date.now() - quietSince >= workerData.idleMs) { clearInterval(timer); db.close(); parentPort.postMessage({ idle: stamp }); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/**
 * Copies SQLite's write-ahead log into the database file on a worker thread. SQLite's own automatic checkpoint runs
 * inside the commit that crosses 1,000 log pages, on the server's only thread: while a long document was indexed,
 * one commit in a hundred then held every request for 70–90 ms (fsync included). The server's connection is opened
 * with wal_autocheckpoint = 0 and this thread takes over; close() stops it (the last checkpoint happens when the
 * server's connection closes).
 *
 * The thread runs only while there is something to copy: a worker thread is ~12 MB the server would otherwise hold
 * while idle. Every `everyMs` the server looks at the log file's modification time and size (one stat); when they
 * differ from what the last thread left fully copied, a thread starts; it stops once everything is copied and the log
 * has been quiet for idleMs. A write that changes neither (same clock tick, log rewritten from its start) is copied
 * with the next one that does: until then it is read from the log, as SQLite always does, so nothing is lost.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  /** The log's stamp when the last thread left it fully copied (none yet: any log with content needs a thread). */
  private clean: string | undefined;
  private readonly watch: NodeJS.Timeout;
  private looking = false;
  private closed = false;
  /** Threads started so far (for tests and diagnostics). */
  started = 0;

  constructor(
    private readonly file: string,
    private readonly options: { everyMs?: number; idleMs?: number } = {},
  ) {
    this.watch = setInterval(() => this.look(), options.everyMs ?? CHECKPOINT_EVERY_MS);
    this.watch.unref();
    this.look();
  }

  /** Whether a thread runs now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watch);
    const worker = this.worker;
    if (worker) {
      // Held until it is gone: unref'd, a program whose last work is awaiting close() would end with that await unsettled.
      worker.ref();
      worker.postMessage('stop');
    }
    await this.exited;
  }

  /** Starts a thread if the log changed since it was last left fully copied. */
  private look(): void {
    if (this.worker || this.looking || this.closed) return;
    this.looking = true;
    fs.stat(`${this.file}-wal`, (error, stats) => {
      this.looking = false;
      if (this.worker || this.closed) return;
      if (error) return; // no log yet: nothing to copy
      const stamp = `${stats.mtimeMs}:${stats.size}`;
      if (stamp === this.clean || (this.clean === undefined && stats.size === 0)) return;
      this.start();
    });
  }

  private start(): void {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const { everyMs = CHECKPOINT_EVERY_MS, idleMs = DEFAULT_IDLE_MS } = this.options;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: this.file, everyMs, idleMs } });
    this.worker = worker;
    this.started++;
    this.exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.unref(); // never keeps a finished program alive
    worker.on('message', (message: { idle: string }) => {
      this.clean = message.idle;
      void worker.terminate(); // its connection is closed: nothing is cut short
    });
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    // A checkpointer that dies only lets the log grow until the next look starts another: worth a line, not a crash.
    worker.on('error', (error) => process.emitWarning(`SQLite checkpoint thread stopped: ${error.message}`));
  }
}
