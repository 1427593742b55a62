import { Worker, type ResourceLimits } from 'node:worker_threads';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';
import { resolveDocumentKind, type DocumentKind } from './content-type.js';
import type { ExtractionSettings } from './document-extractor.js';
import { ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
import type { ExtractionJob, WorkerReply, WorkerStartData } from './protocol.js';

export interface WorkerThreadDocumentReaderOptions extends Partial<ExtractionSettings> {
  /** Worker threads, i.e. documents extracted in parallel. Default 1 (OCR is CPU-heavy; leave cores to the API). */
  poolSize?: number;
  /** Per document, from the moment a worker takes it; the worker is killed when exceeded. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * V8 heap limits per worker (e.g. { maxOldGenerationSizeMb: 1024 }): a pathological document then crashes its
   * worker (rejected, worker replaced) instead of the whole process. Native memory (canvas, OCR wasm) is not counted.
   */
  resourceLimits?: ResourceLimits;
}

export const DEFAULT_EXTRACTION_SETTINGS: ExtractionSettings = {
  renderDpi: 300,
  maxImagePixels: 24_000_000, // ~A4 at 500 dpi or a 24 MP photo; bigger images are scaled down for OCR
  minTextCharsPerPage: 16,
};

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
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Why the worker is going away (timeout, crash, close): the in-flight job is rejected with it on exit. */
  failure?: Error;
}

/**
 * DocumentReader that parses and OCRs in worker threads, so a 100-page PDF or a large photo never blocks the API's
 * event loop. Documents queue for a small pool of workers; a worker that crashes or times out rejects its document
 * and is replaced (a new one is started for the next document). Call close() on shutdown.
 */
export class WorkerThreadDocumentReader implements DocumentReader {
  private readonly poolSize: number;
  private readonly timeoutMs: number;
  private readonly resourceLimits: ResourceLimits | undefined;
  private readonly settings: ExtractionSettings;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: WorkerThreadDocumentReaderOptions = {}) {
    const { poolSize = 1, timeoutMs = 10 * 60_000, resourceLimits, ...settings } = options;
    if (!Number.isInteger(poolSize) || poolSize < 1) throw new RangeError('poolSize must be a positive integer');
    if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    this.poolSize = poolSize;
    this.timeoutMs = timeoutMs;
    this.resourceLimits = resourceLimits;
    this.settings = { ...DEFAULT_EXTRACTION_SETTINGS, ...definedOnly(settings) };
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

  /** Rejects queued and running documents and terminates the workers. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The document reader was closed'));
    await Promise.all(
      [...this.slots].map((slot) => {
        slot.failure ??= new Error('The document reader was closed');
        return slot.worker.terminate();
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
    slot.worker.ref(); // a running document keeps the process alive; an idle worker does not
    slot.timer = setTimeout(() => {
      slot.failure = new ExtractionTimeoutError(this.timeoutMs);
      void slot.worker.terminate();
    }, this.timeoutMs);
    // Copy so the caller's buffer stays usable, then move (not clone) the copy to the worker. Not bytes.slice():
    // on a Node Buffer that is a view, and transferring it would detach the caller's (or Node's pooled) memory.
    const bytes = new Uint8Array(job.bytes);
    const message: ExtractionJob = { id: job.id, kind: job.kind, bytes };
    slot.worker.postMessage(message, [bytes.buffer]);
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker({ settings: this.settings }, this.resourceLimits) };
    slot.worker.unref();
    slot.worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    slot.worker.on('error', (error) => {
      slot.failure ??= new ExtractionWorkerCrashedError(error.message, { cause: error });
    });
    slot.worker.on('exit', (code) => {
      this.slots.delete(slot);
      const job = this.release(slot);
      job?.reject(slot.failure ?? new ExtractionWorkerCrashedError(`the thread exited with code ${code}`));
      this.dispatch(); // starts a replacement if documents are waiting
    });
    this.slots.add(slot);
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
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
      if (reply.stack) error.stack = reply.stack; // where it failed inside the worker
      job.reject(error);
    }
    this.dispatch();
  }

  private release(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    slot.worker.unref();
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
 * Starts extraction-worker.{ts,js} next to this file. Compiled to .js, the entry is loaded directly. Under tsx
 * (tests, `npm start`) it is .ts, and on Node 20 neither an inherited nor an explicit `--import tsx` in the worker's
 * execArgv makes a .ts worker entry loadable (ERR_UNKNOWN_FILE_EXTENSION): the loader hooks do not reach the worker.
 * So the worker starts from a small JS bootstrap that calls tsx's register() API, then imports the .ts entry.
 */
function startWorker(startData: WorkerStartData, resourceLimits: ResourceLimits | undefined): Worker {
  const options = { resourceLimits, name: 'document-extraction' };
  if (import.meta.url.endsWith('.ts')) {
    const workerData: WorkerStartData = { ...startData, entry: new URL('./extraction-worker.ts', import.meta.url).href };
    return new Worker(new URL('./extraction-worker-bootstrap.mjs', import.meta.url), { ...options, workerData });
  }
  return new Worker(new URL('./extraction-worker.js', import.meta.url), { ...options, workerData: startData });
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
