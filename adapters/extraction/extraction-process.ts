import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentKind } from './content-type.js';
import { ExtractionMemoryLimitError, ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
import { RunningHeaderRemover } from './running-headers.js';
import type { WorkerReply, WorkerStartData } from './protocol.js';
import { liveChildren, setRef, startChild } from './worker-entry.js';

/** Limits of one extraction process, enforced from the parent (a child stuck in native code cannot police itself). */
export interface ProcessLimits {
  /** One page (or opening the document) may take this long. */
  pageTimeoutMs: number;
  /** The document's budget is pageTimeoutMs + its pages × msPerPage. */
  msPerPage: number;
  /** Resident size above which the child is killed and its document fails; also its V8 heap limit. */
  maxMemoryMb: number;
  /** After this many pages (or a document that left it above maxMemoryMb / 4), the child is replaced once its document is done. */
  recycleAfterPages: number;
  /** An idle child exits after this long; the next document starts a new one. */
  idleMs: number;
}

/** A document given to a process: where its bytes are, what it is, and whom to answer. */
export interface DocumentTask {
  id: number;
  kind: DocumentKind;
  /** Writes the document to a temporary file for the child, resolving to its path. */
  writeFile(): Promise<string>;
  onProgress(fraction: number): void;
  /** Pages whose text is final (running headers removed), in order, each once, while later pages are read. */
  onPages(pages: ExtractedPage[]): void;
  /** The caller takes page texts from onPages: the pages resolve() gets then leave their text out (''). */
  streamsText: boolean;
  resolve(pages: ExtractedPage[]): void;
  reject(error: Error): void;
}

/** The end of a child's stderr kept so that a phrase split across two chunks is still recognized. */
const STDERR_TAIL_CHARS = 256;
/** After a child's exit, how long to wait for the rest of its stderr before answering its document. */
const STDERR_GRACE_MS = 500;
/** V8's fatal out-of-memory report: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory". */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|FatalProcessOutOfMemory/;

/**
 * One extraction child process and the document it works on: sends the document, enforces the page and document
 * time budgets and the memory limit, stops itself when idle or worn (recycling), and answers the document when the
 * child dies. The pool (ChildProcessDocumentReader) learns through `onFree` and `onExit` when to dispatch again.
 */
export class ExtractionProcess {
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private ready = false;
  private task?: DocumentTask;
  private file?: string;
  /** Why the child is going away: the document in flight is rejected with it on exit. Also: no new document. */
  private failure?: Error;
  /** Pages of the current document received so far (their text final once passed through `headers`). */
  private pages: ExtractedPage[] = [];
  private headers?: RunningHeaderRemover;
  private pagesRead = 0;
  private lastRssMb = 0;
  private pagesDone = 0;
  private startedAt = 0;
  private pageTimer?: NodeJS.Timeout;
  private documentTimer?: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  private stderrTail = '';
  private outOfMemory = false;

  constructor(
    startData: WorkerStartData,
    private readonly limits: ProcessLimits,
    private readonly events: { onFree(process: ExtractionProcess): void; onExit(process: ExtractionProcess): void },
  ) {
    this.child = startChild(startData, [`--max-old-space-size=${limits.maxMemoryMb}`, '--expose-gc']);
    liveChildren.add(this.child);
    setRef(this.child, false);
    let markExited!: () => void;
    this.exited = new Promise<void>((resolve) => (markExited = resolve));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const text = this.stderrTail + chunk.toString('utf8'); // with the previous tail: a phrase may span chunks
      this.outOfMemory ||= OUT_OF_MEMORY.test(text);
      this.stderrTail = text.slice(-STDERR_TAIL_CHARS);
    });
    this.child.on('message', (reply: WorkerReply) => this.onReply(reply));
    let finished = false;
    const finish = (detail: string): void => {
      if (finished) return;
      finished = true;
      liveChildren.delete(this.child);
      const task = this.release();
      task?.reject(this.failure ?? new ExtractionWorkerCrashedError(this.outOfMemory ? `it ran out of memory (${detail})` : detail));
      markExited();
      this.events.onExit(this);
    };
    this.child.on('error', (error) => {
      // Failed to start (no pid; 'exit' may never come), or a failed kill/send on a child that is going away.
      this.failure ??= new ExtractionWorkerCrashedError(error.message, { cause: error });
      if (this.child.pid === undefined) finish(error.message);
    });
    this.child.on('exit', (code, signal) => {
      const detail = signal ? `the process was killed by ${signal}` : `the process exited with code ${code}`;
      // Answer once its stderr is read to the end (it may explain the death), but do not wait on it forever.
      const grace = setTimeout(() => finish(detail), STDERR_GRACE_MS);
      grace.unref();
      if (!this.child.stderr || this.child.stderr.readableEnded) finish(detail);
      else this.child.stderr.once('close', () => finish(detail));
    });
  }

  /** Takes a document now: neither busy nor going away. */
  get available(): boolean {
    return !this.task && !this.failure;
  }

  run(task: DocumentTask): void {
    clearTimeout(this.idleTimer);
    this.task = task;
    setRef(this.child, true); // a running document keeps the server's event loop alive; an idle child does not
    task
      .writeFile()
      .then((file) => {
        if (this.task !== task) return void fs.rm(file, { force: true }, () => {});
        this.file = file;
        if (this.ready && !this.failure) this.send();
      })
      .catch((error: Error) => this.stop(error));
  }

  /** Kills the child: the document in flight (if any) is rejected with `reason` once the child is gone. */
  stop(reason: Error): void {
    this.failure ??= reason;
    // An idle child is unref'd: without this, a program whose last work is awaiting close() would end with that
    // await unsettled (exit code 13) instead of waiting the few milliseconds for the child's exit.
    setRef(this.child, true);
    this.child.kill('SIGKILL');
  }

  /** Stops the document in flight at once (the child is killed; the pool starts another for the next document). */
  cancel(task: DocumentTask, reason: Error): void {
    if (this.task !== task) return;
    this.release();
    this.stop(reason);
  }

  private send(): void {
    const task = this.task!;
    this.startedAt = Date.now();
    this.pagesDone = 0;
    const pages: ExtractedPage[] = (this.pages = []);
    this.headers = new RunningHeaderRemover((texts, first) => {
      const final = texts.map((text, i) => ({ ...pages[first + i], text }));
      // A 5,000-page document's text held until its end would grow the server's heap, and every major GC with it.
      final.forEach((page, i) => (pages[first + i] = task.streamsText ? { ...page, text: '' } : page));
      task.onPages(final);
    });
    this.armPageTimer();
    // Opening the document counts as its first page until the child says how many pages it has.
    this.child.send({ id: task.id, kind: task.kind, file: this.file! }, undefined, undefined, (error) => {
      if (error && !this.failure) this.stop(new ExtractionWorkerCrashedError(`the document could not be sent to it (${error.message})`, { cause: error }));
    });
  }

  private onReply(reply: WorkerReply): void {
    if (reply.type === 'ready') {
      this.ready = true;
      if (this.task && this.file && !this.failure) this.send();
      else if (!this.task) this.armIdleTimer();
      return;
    }
    const task = this.task;
    if (!task || reply.id !== task.id || this.failure) return;
    if (reply.type === 'started' || reply.type === 'progress') this.checkMemory(reply.rssMb);
    if (this.failure) return;
    if (reply.type === 'started') {
      const budget = this.limits.pageTimeoutMs + reply.pages * this.limits.msPerPage;
      const error = ExtractionTimeoutError.document(reply.pages, budget, this.limits.pageTimeoutMs, this.limits.msPerPage);
      this.documentTimer = setTimeout(() => this.stop(error), Math.max(0, budget - (Date.now() - this.startedAt)));
      return;
    }
    if (reply.type === 'progress') {
      for (const page of reply.pages) {
        this.pages.push(page);
        this.headers!.push(page.text);
      }
      if (reply.pagesDone > this.pagesDone) {
        this.pagesRead += reply.pagesDone - this.pagesDone;
        this.pagesDone = reply.pagesDone;
        this.armPageTimer();
      }
      task.onProgress(reply.fraction);
      return;
    }
    const pages = this.pages;
    const headers = this.headers;
    this.release();
    if (reply.type === 'result') {
      this.lastRssMb = reply.rssMb; // a document read to its end is answered; its size only decides recycling
      headers!.end();
      task.onProgress(1);
      task.resolve(pages);
    } else if (reply.unprocessable) {
      task.reject(new UnprocessableDocumentError(reply.message));
    } else {
      const error = new Error(reply.message);
      if (reply.stack) error.stack = reply.stack; // where it failed inside the child
      task.reject(error);
    }
    // A worn or grown child is replaced (its memory freed while the server indexes what it read); a lean one waits,
    // for a while, for more.
    if (this.pagesRead >= this.limits.recycleAfterPages || this.lastRssMb > this.limits.maxMemoryMb / 4) {
      this.stop(new Error('The extraction process was recycled'));
    } else {
      this.armIdleTimer();
      this.events.onFree(this);
    }
  }

  private checkMemory(rssMb: number): void {
    this.lastRssMb = rssMb;
    if (rssMb > this.limits.maxMemoryMb) this.stop(new ExtractionMemoryLimitError(this.limits.maxMemoryMb));
  }

  private armPageTimer(): void {
    clearTimeout(this.pageTimer);
    const page = this.pagesDone + 1;
    this.pageTimer = setTimeout(() => this.stop(ExtractionTimeoutError.page(page, this.limits.pageTimeoutMs)), this.limits.pageTimeoutMs);
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.task) this.stop(new Error('The extraction process was idle'));
    }, this.limits.idleMs);
    this.idleTimer.unref();
  }

  /** Ends the current document's bookkeeping (timers, temporary file) and returns it, unanswered. */
  private release(): DocumentTask | undefined {
    const task = this.task;
    clearTimeout(this.pageTimer);
    clearTimeout(this.documentTimer);
    this.task = undefined;
    this.pages = [];
    this.headers = undefined;
    if (this.file) fs.rm(this.file, { force: true }, () => {});
    this.file = undefined;
    setRef(this.child, false);
    return task;
  }
}
