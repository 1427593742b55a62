import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';
import { resolveDocumentKind, type DocumentKind } from './content-type.js';
import type { ExtractionSettings } from './document-extractor.js';
import { ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
import type { ExtractionJob, WorkerReply, WorkerStartData } from './protocol.js';

export interface ChildProcessDocumentReaderOptions extends Partial<ExtractionSettings> {
  /** Child processes, i.e. documents extracted in parallel. Default 1 (OCR is CPU-heavy; leave cores to the API). */
  poolSize?: number;
  /** Per document, from the moment a child takes it; the child is killed (SIGKILL) when exceeded. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * V8 old-space limit per child (node --max-old-space-size): a pathological document then crashes its child (the
   * document is rejected, the child replaced). Default: Node's own limit. Native memory (canvas, OCR wasm) is not
   * counted; the child being a separate process, the OS can still kill it alone when it uses too much.
   */
  maxOldSpaceSizeMb?: number;
  /**
   * TEST ONLY, never set from configuration: a child that receives a document containing this text kills itself
   * with SIGSEGV, like a native crash in @napi-rs/canvas would. Proves the server survives such crashes.
   */
  crashOnMarkerForTests?: string;
}

export const DEFAULT_EXTRACTION_SETTINGS: ExtractionSettings = {
  renderDpi: 300,
  maxImagePixels: 24_000_000, // ~A4 at 500 dpi or a 24 MP photo; bigger images are scaled down for OCR
  minTextCharsPerPage: 16,
};

/** The end of a child's stderr kept so that a phrase split across two chunks is still recognized. */
const STDERR_TAIL_CHARS = 256;
/** After a child's exit, how long to wait for the rest of its stderr before answering its document. */
const STDERR_GRACE_MS = 500;

interface Job {
  id: number;
  kind: DocumentKind;
  bytes: Uint8Array;
  onProgress?: (fraction: number) => void;
  progress: number;
  resolve: (pages: ExtractedPage[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess;
  /** The child sent 'ready': it listens for jobs. A job assigned before that is sent then. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Why the child is going away (timeout, close, failed send): the in-flight job is rejected with it on exit. */
  failure?: Error;
  /** The last characters of the child's stderr (which is passed on to ours as it comes). */
  stderrTail: string;
  /** V8 reported running out of heap on stderr (its report ends in a long native stack trace, so it is remembered). */
  outOfMemory: boolean;
  /** Resolves once the child is gone and its job answered. */
  exited: Promise<void>;
}

/**
 * DocumentReader that parses and OCRs in child processes, so a 100-page PDF or a large photo never blocks the API's
 * event loop, and a native crash (a segfault or panic in canvas), running out of memory, or a hang in a parser takes
 * down only that child, never the server. Documents queue for a small pool of children; a child that crashes or
 * times out rejects its document and is replaced (a new one is started for the next document). Children exit when
 * the server process does. Call close() on shutdown.
 */
export class ChildProcessDocumentReader implements DocumentReader {
  private readonly poolSize: number;
  private readonly timeoutMs: number;
  private readonly execArgv: string[];
  private readonly startData: WorkerStartData;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ChildProcessDocumentReaderOptions = {}) {
    const {
      poolSize = 1,
      timeoutMs = 10 * 60_000,
      maxOldSpaceSizeMb,
      crashOnMarkerForTests,
      ...settings
    } = options;
    if (!Number.isInteger(poolSize) || poolSize < 1) throw new RangeError('poolSize must be a positive integer');
    if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    if (maxOldSpaceSizeMb !== undefined && !(Number.isInteger(maxOldSpaceSizeMb) && maxOldSpaceSizeMb > 0)) {
      throw new RangeError('maxOldSpaceSizeMb must be a positive integer');
    }
    this.poolSize = poolSize;
    this.timeoutMs = timeoutMs;
    this.execArgv = maxOldSpaceSizeMb === undefined ? [] : [`--max-old-space-size=${maxOldSpaceSizeMb}`];
    this.startData = {
      settings: { ...DEFAULT_EXTRACTION_SETTINGS, ...definedOnly(settings) },
      ...(crashOnMarkerForTests ? { crashOnMarker: crashOnMarkerForTests } : {}),
    };
  }

  async read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    if (this.closed) throw new Error('The document reader is closed');
    // Type checks happen here, before queueing: a mismatch is answered at once.
    const kind = resolveDocumentKind(request.bytes, request.contentType);
    return new Promise<ExtractedPage[]>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        kind,
        bytes: request.bytes,
        onProgress: request.onProgress,
        progress: -1,
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  /** Rejects queued and running documents and kills the children (resolves once they are gone). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The document reader was closed'));
    await Promise.all(
      [...this.slots].map((slot) => {
        slot.failure ??= new Error('The document reader was closed');
        // An idle child is unref'd: without this, a program whose last work is awaiting close() would end with that
        // await unsettled (exit code 13) instead of waiting the few milliseconds for the child's exit.
        setRef(slot.child, true);
        slot.child.kill('SIGKILL');
        return slot.exited;
      }),
    );
  }

  private dispatch(): void {
    while (!this.closed && this.queue.length > 0) {
      let slot = [...this.slots].find((candidate) => !candidate.job && !candidate.failure);
      if (!slot) {
        if (this.slots.size >= this.poolSize) return;
        slot = this.spawn();
      }
      this.start(slot, this.queue.shift()!);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    setRef(slot.child, true); // a running document keeps the process alive; an idle child does not
    slot.timer = setTimeout(() => {
      slot.failure = new ExtractionTimeoutError(this.timeoutMs);
      slot.child.kill('SIGKILL');
    }, this.timeoutMs);
    if (slot.ready) this.send(slot, job);
  }

  /** Serializes the bytes straight from the caller's buffer (no copy of our own; the caller's buffer is untouched). */
  private send(slot: Slot, job: Job): void {
    const message: ExtractionJob = { id: job.id, kind: job.kind, bytes: job.bytes };
    slot.child.send(message, undefined, undefined, (error) => {
      if (!error || slot.failure) return;
      slot.failure = new ExtractionWorkerCrashedError(`the document could not be sent to it (${error.message})`, { cause: error });
      slot.child.kill('SIGKILL');
    });
  }

  private spawn(): Slot {
    const child = startChild(this.startData, this.execArgv);
    let markExited!: () => void;
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    const slot: Slot = { child, ready: false, stderrTail: '', outOfMemory: false, exited };
    liveChildren.add(child);
    setRef(child, false);
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const text = slot.stderrTail + chunk.toString('utf8'); // with the previous tail: a phrase may span chunks
      slot.outOfMemory ||= OUT_OF_MEMORY.test(text);
      slot.stderrTail = text.slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (reply: WorkerReply) => this.onReply(slot, reply));

    let finished = false;
    const finish = (detail: string): void => {
      if (finished) return;
      finished = true;
      liveChildren.delete(child);
      this.slots.delete(slot);
      const job = this.release(slot);
      const crash = () => new ExtractionWorkerCrashedError(slot.outOfMemory ? `it ran out of memory (${detail})` : detail);
      job?.reject(slot.failure ?? crash());
      markExited();
      this.dispatch(); // starts a replacement if documents are waiting
    };
    child.on('error', (error) => {
      // Failed to start (no pid; 'exit' may never come), or a failed kill/send on a child that is going away.
      slot.failure ??= new ExtractionWorkerCrashedError(error.message, { cause: error });
      if (child.pid === undefined) finish(error.message);
    });
    child.on('exit', (code, signal) => {
      const detail = signal ? `the process was killed by ${signal}` : `the process exited with code ${code}`;
      // Answer once its stderr is read to the end (it may explain the death), but do not wait on it forever.
      const grace = setTimeout(() => finish(detail), STDERR_GRACE_MS);
      grace.unref();
      if (!child.stderr || child.stderr.readableEnded) finish(detail);
      else child.stderr.once('close', () => finish(detail));
    });
    this.slots.add(slot);
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      if (slot.job && !slot.failure) this.send(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || reply.id !== job.id || slot.failure) return;
    if (reply.type === 'progress') {
      this.report(job, reply.fraction);
      return;
    }
    this.release(slot);
    if (reply.type === 'result') {
      this.report(job, 1);
      job.resolve(reply.pages);
    } else if (reply.unprocessable) {
      job.reject(new UnprocessableDocumentError(reply.message));
    } else {
      const error = new Error(reply.message);
      if (reply.stack) error.stack = reply.stack; // where it failed inside the child
      job.reject(error);
    }
    this.dispatch();
  }

  private release(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    setRef(slot.child, false);
    return job;
  }

  /** Progress only moves forward; a throwing callback must not break extraction (it runs in an event handler). */
  private report(job: Job, fraction: number): void {
    if (!job.onProgress || !(fraction > job.progress)) return;
    job.progress = fraction;
    try {
      job.onProgress(fraction);
    } catch {
      // progress is advisory
    }
  }
}

/**
 * Forks extraction-worker.{ts,js} next to this file, with an IPC channel using 'advanced' serialization (document
 * bytes travel as binary). Compiled to .js, the entry is forked directly. Under tsx (tests, `npm start`) it is .ts:
 * the child starts from a small JS bootstrap that calls tsx's register() API, then imports the .ts entry. The
 * parent's execArgv is not inherited (tsx's loader flags, --inspect and the like); only our own flags are given.
 */
function startChild(startData: WorkerStartData, execArgv: string[]): ChildProcess {
  const typescript = import.meta.url.endsWith('.ts');
  const data: WorkerStartData = typescript ? { ...startData, entry: new URL('./extraction-worker.ts', import.meta.url).href } : startData;
  const modulePath = fileURLToPath(new URL(typescript ? './extraction-worker-bootstrap.mjs' : './extraction-worker.js', import.meta.url));
  return fork(modulePath, [JSON.stringify(data)], {
    execArgv,
    serialization: 'advanced',
    // stdout is shared; stderr is piped (and passed on) so that a crash report can be put into the error.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
}

/** Whether the child (its process handle, IPC channel and stderr pipe) keeps this process's event loop alive. */
function setRef(child: ChildProcess, ref: boolean): void {
  const stderr = child.stderr as Socket | null;
  if (ref) {
    child.ref();
    child.channel?.ref();
    stderr?.ref();
  } else {
    child.unref();
    child.channel?.unref();
    stderr?.unref();
  }
}

/** V8's fatal out-of-memory report: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory". */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|FatalProcessOutOfMemory/;

/**
 * Children of every reader, killed when this process exits without close() (e.g. process.exit()). They would exit
 * on their own once their IPC channel closes, but a busy child notices only between two pages.
 */
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
