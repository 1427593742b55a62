import type { ChildProcess } from 'node:child_process';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentKind } from './content-type.js';
import { ExtractionMemoryLimitError, ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
import type { AttachmentFile, ExtractionJob, WorkerCommand, WorkerReply, WorkerStartData } from './protocol.js';
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

/**
 * A page range of a document given to a process: where the document's bytes are, what it is, and whom to answer.
 * The pages come back raw (running headers still on them): the document, which sees every range, cleans them.
 */
export interface RangeTask {
  /** Unique per task (a range re-read after a crash is a new task). */
  id: number;
  kind: DocumentKind;
  firstPage: number;
  /** May lie past the document's end (the first range of a document of unknown length). */
  lastPage: number;
  /** The document's temporary file for the child (written once per document), resolving to its path. */
  file(): Promise<string>;
  /** The child opened the document: it has `pages` pages in all. */
  onStarted(pages: number): void;
  /** Pages of this range in order, each once; `fraction` is the child's position in the whole document. */
  onPages(pages: ExtractedPage[], fraction: number): void;
  /** The child asks whether the next page may be OCR'd (the document's budget). */
  takeOcrPage(): boolean;
  /** Other ranges of the same document remain to be read (then a large process is not recycled yet). */
  readonly moreToRead: boolean;
  /** The range is read to its end (or the document's), with the attachments the child wrote to files, if any. */
  resolve(attachments?: AttachmentFile[]): void;
  reject(error: Error): void;
}

/**
 * Node options of an extraction process. Its V8 heap gets the process's memory limit as ceiling (a runaway heap dies
 * early with a clear out-of-memory report); --expose-gc lets it collect after dropping caches and after opening a
 * document. --max-semi-space-size=8 (MB): V8 grew the young generation to 64 MB in each process while the long real
 * PDF was read (semi-spaces of 32 MB) although its heap held 12-40 MB; with 8 MB the peak of each process fell by
 * ~45 MB (issue 18, two processes on the 4,557-page PDF: 403-420 → 355-379 MB). 4 MB saved a few MB more.
 */
export function extractionNodeFlags(maxMemoryMb: number): string[] {
  return [`--max-old-space-size=${maxMemoryMb}`, '--max-semi-space-size=8', '--expose-gc'];
}

/** The end of a child's stderr kept so that a phrase split across two chunks is still recognized. */
const STDERR_TAIL_CHARS = 256;
/** After a child's exit, how long to wait for the rest of its stderr before answering its document. */
const STDERR_GRACE_MS = 500;
/** V8's fatal out-of-memory report: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory". */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|FatalProcessOutOfMemory/;

/**
 * One extraction child process and the page range it works on: sends the range, enforces the page and range time
 * budgets and the memory limit, stops itself when idle or worn (recycling), and answers the range when the child
 * dies. The pool (ChildProcessDocumentReader) learns through `onFree` and `onExit` when to dispatch again.
 */
export class ExtractionProcess {
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private ready = false;
  private task?: RangeTask;
  private file?: string;
  /** Why the child is going away: the range in flight is rejected with it on exit. Also: no new range. */
  private failure?: Error;
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
    this.child = startChild(startData, extractionNodeFlags(limits.maxMemoryMb));
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
      // Set before answering: the pool, dispatching again from the answer, must not pick this process as free.
      this.failure ??= new ExtractionWorkerCrashedError(this.outOfMemory ? `it ran out of memory (${detail})` : detail);
      task?.reject(this.failure);
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

  /** The child's process id (tests kill it to play a crash). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The range in flight, if any. */
  get running(): RangeTask | undefined {
    return this.task;
  }

  run(task: RangeTask): void {
    clearTimeout(this.idleTimer);
    this.task = task;
    setRef(this.child, true); // a running range keeps the server's event loop alive; an idle child does not
    task
      .file()
      .then((file) => {
        if (this.task !== task) return;
        this.file = file;
        if (this.ready && !this.failure) this.send();
      })
      .catch((error: Error) => this.stop(error));
  }

  /** Kills the child: the range in flight (if any) is rejected with `reason` once the child is gone. */
  stop(reason: Error): void {
    this.failure ??= reason;
    // An idle child is unref'd: without this, a program whose last work is awaiting close() would end with that
    // await unsettled (exit code 13) instead of waiting the few milliseconds for the child's exit.
    setRef(this.child, true);
    this.child.kill('SIGKILL');
  }

  /** Stops the range in flight at once, unanswered (the child is killed; the pool starts another when needed). */
  cancel(task: RangeTask, reason: Error): void {
    if (this.task !== task) return;
    this.release();
    this.stop(reason);
  }

  private send(): void {
    const task = this.task!;
    this.startedAt = Date.now();
    this.pagesDone = task.firstPage - 1;
    this.armPageTimer();
    // Opening the document counts as the range's first page until the child says how many pages it has.
    const job: ExtractionJob = { type: 'read', id: task.id, kind: task.kind, file: this.file!, firstPage: task.firstPage, lastPage: task.lastPage };
    this.sendToChild(job, 'the document could not be sent to it');
  }

  private sendToChild(command: WorkerCommand, failure: string): void {
    this.child.send(command, undefined, undefined, (error) => {
      if (error && !this.failure) this.stop(new ExtractionWorkerCrashedError(`${failure} (${error.message})`, { cause: error }));
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
      this.armRangeTimer(task, reply.pages);
      task.onStarted(reply.pages);
      return;
    }
    if (reply.type === 'ocr-request') {
      this.sendToChild({ type: 'ocr-grant', id: task.id, granted: task.takeOcrPage() }, 'the OCR budget could not be sent to it');
      return;
    }
    if (reply.type === 'progress') {
      if (reply.pagesDone > this.pagesDone) {
        this.pagesRead += reply.pagesDone - this.pagesDone;
        this.pagesDone = reply.pagesDone;
        this.armPageTimer();
      }
      task.onPages(reply.pages, reply.fraction);
      return;
    }
    this.release();
    if (reply.type === 'result') {
      this.lastRssMb = reply.rssMb; // a range read to its end is answered; its size only decides recycling
      task.resolve(reply.attachments);
    } else if (reply.unprocessable) {
      task.reject(new UnprocessableDocumentError(reply.message));
    } else {
      const error = new Error(reply.message);
      if (reply.stack) error.stack = reply.stack; // where it failed inside the child
      task.reject(error);
    }
    // A worn or grown child is replaced (its memory freed while the server indexes what it read); a lean one waits,
    // for a while, for more. A grown one still reads the next ranges of a document: restarting it would cost more.
    if (this.pagesRead >= this.limits.recycleAfterPages || (this.lastRssMb > this.limits.maxMemoryMb / 4 && !task.moreToRead)) {
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

  /** A range's budget: pageTimeoutMs + its pages × msPerPage, counted from when it was sent. */
  private armRangeTimer(task: RangeTask, documentPages: number): void {
    const { pageTimeoutMs, msPerPage } = this.limits;
    const pages = Math.max(1, Math.min(task.lastPage, documentPages) - task.firstPage + 1);
    const budget = pageTimeoutMs + pages * msPerPage;
    const error = pages === documentPages
      ? ExtractionTimeoutError.document(pages, budget, pageTimeoutMs, msPerPage)
      : ExtractionTimeoutError.range(task.firstPage, task.firstPage + pages - 1, budget, pageTimeoutMs, msPerPage);
    this.documentTimer = setTimeout(() => this.stop(error), Math.max(0, budget - (Date.now() - this.startedAt)));
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

  /** Ends the current range's bookkeeping (timers) and returns it, unanswered. The file is the document's to delete. */
  private release(): RangeTask | undefined {
    const task = this.task;
    clearTimeout(this.pageTimer);
    clearTimeout(this.documentTimer);
    this.task = undefined;
    this.file = undefined;
    setRef(this.child, false);
    return task;
  }
}
