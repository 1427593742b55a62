import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReadCancelledError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';
import { resolveDocumentKind } from './content-type.js';
import type { ExtractionSettings } from './document-extractor.js';
import { ExtractionProcess, type DocumentTask, type ProcessLimits } from './extraction-process.js';
import type { WorkerStartData } from './protocol.js';

export interface ChildProcessDocumentReaderOptions extends Partial<ExtractionSettings>, Partial<ProcessLimits> {
  /** Child processes, i.e. documents extracted in parallel. Default 1 (OCR is CPU-heavy; leave cores to the API). */
  poolSize?: number;
  /**
   * The children's CPU niceness, 0-19 (default 10): extraction is background work, so when the machine is busy the
   * kernel runs the API's requests first and extraction takes what they leave.
   */
  niceness?: number;
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
  maxPages: 10_000,
  maxOcrPages: 100,
  maxPdfImagePixels: 50_000_000, // A3 at 600 dpi; decoded as RGBA that is already 200 MB
  // PDFium reads the corpus as pdf.js does (99.9 % of words, the same quality figures) in about half the time (issue 18).
  pdfReader: 'pdfium',
};

export const DEFAULT_EXTRACTION_NICENESS = 10;

/**
 * Native memory (canvas, the OCR engine's wasm) is part of the limit; V8's heap gets the same ceiling, so that a
 * runaway heap dies early with a clear out-of-memory report.
 */
export const DEFAULT_PROCESS_LIMITS: ProcessLimits = {
  pageTimeoutMs: 120_000,
  msPerPage: 5_000,
  maxMemoryMb: 1_024,
  recycleAfterPages: 5_000,
  idleMs: 30_000,
};

interface Job extends DocumentTask {
  /** Until the child's temporary file holds them. */
  bytes?: Uint8Array;
  settled: boolean;
  process?: ExtractionProcess;
  /** Unhooks the abort listener. */
  detach(): void;
}

/**
 * DocumentReader that parses and OCRs in child processes, so a 5,000-page PDF or a large photo never blocks the API's
 * event loop, and a native crash (a segfault or panic in canvas), running out of memory, or a hang in a parser takes
 * down only that child, never the server. Documents queue for a small pool of children (ExtractionProcess); a child
 * that crashes, times out or is cancelled answers its document and is replaced when the next document comes. Idle
 * children exit after a while. Call close() on shutdown.
 */
export class ChildProcessDocumentReader implements DocumentReader {
  private readonly poolSize: number;
  private readonly limits: ProcessLimits;
  private readonly startData: WorkerStartData;
  private readonly processes = new Set<ExtractionProcess>();
  private readonly queue: Job[] = [];
  private tempDir?: string;
  private nextId = 1;
  private closed = false;

  constructor(options: ChildProcessDocumentReaderOptions = {}) {
    const { poolSize = 1, niceness = DEFAULT_EXTRACTION_NICENESS, crashOnMarkerForTests, pageTimeoutMs, msPerPage, maxMemoryMb, recycleAfterPages, idleMs, ...settings } = options;
    if (!Number.isInteger(poolSize) || poolSize < 1) throw new RangeError('poolSize must be a positive integer');
    if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) throw new RangeError('niceness must be a whole number from 0 to 19');
    this.poolSize = poolSize;
    this.limits = { ...DEFAULT_PROCESS_LIMITS, ...definedOnly({ pageTimeoutMs, msPerPage, maxMemoryMb, recycleAfterPages, idleMs }) };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer`);
    }
    const merged = { ...DEFAULT_EXTRACTION_SETTINGS, ...definedOnly(settings) };
    this.startData = {
      settings: merged,
      cleanup: { cleanupAboveHeapMb: Math.floor(this.limits.maxMemoryMb / 2), collectAboveRssMb: Math.floor(this.limits.maxMemoryMb / 4) },
      niceness,
      ...(crashOnMarkerForTests ? { crashOnMarker: crashOnMarkerForTests } : {}),
    };
  }

  async read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    if (this.closed) throw new Error('The document reader is closed');
    // The callbacks are kept, not the request: its bytes must not outlive the temporary file (see writeTempFile).
    const { signal, onProgress, onPages } = request;
    if (signal?.aborted) throw new ReadCancelledError();
    // Type checks happen here, before queueing: a mismatch is answered at once.
    const kind = resolveDocumentKind(request.bytes, request.contentType);
    return new Promise<ExtractedPage[]>((resolve, reject) => {
      let progress = -1;
      const onAbort = () => this.cancel(job);
      const job: Job = {
        id: this.nextId++,
        kind,
        bytes: request.bytes,
        settled: false,
        streamsText: onPages !== undefined,
        writeFile: () => this.writeTempFile(job),
        // Progress only moves forward; a throwing callback must not break extraction (it runs in an event handler).
        onProgress: (fraction) => {
          if (job.settled || !onProgress || !(fraction > progress)) return;
          progress = fraction;
          try {
            onProgress(fraction);
          } catch {
            // progress is advisory
          }
        },
        // A caller's failure to take pages stops the document: carrying on would leave pages unaccounted for.
        onPages: (pages) => {
          if (job.settled || !onPages) return;
          try {
            onPages(pages);
          } catch (error) {
            job.process?.cancel(job, error instanceof Error ? error : new Error(String(error)));
            job.reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
        resolve: (pages) => settle(() => resolve(pages)),
        reject: (error) => settle(() => reject(error)),
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      const settle = (answer: () => void) => {
        if (job.settled) return;
        job.settled = true;
        job.detach();
        answer();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Rejects queued and running documents and kills the children (resolves once they are gone). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The document reader was closed'));
    await Promise.all(
      [...this.processes].map((child) => {
        child.stop(new Error('The document reader was closed'));
        return child.exited;
      }),
    );
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true });
  }

  /** A queued document never starts; a running one is stopped at once (its child is killed). */
  private cancel(job: Job): void {
    if (job.settled) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    job.process?.cancel(job, new ReadCancelledError());
    job.reject(new ReadCancelledError());
  }

  private dispatch(): void {
    while (!this.closed && this.queue.length > 0) {
      let child = [...this.processes].find((candidate) => candidate.available);
      if (!child) {
        if (this.processes.size >= this.poolSize) return;
        child = new ExtractionProcess(this.startData, this.limits, {
          onFree: () => this.dispatch(),
          onExit: (gone) => {
            this.processes.delete(gone);
            this.dispatch(); // starts a replacement if documents are waiting
          },
        });
        this.processes.add(child);
      }
      const job = this.queue.shift()!;
      job.process = child;
      child.run(job);
    }
  }

  /**
   * The child reads the document from a private temporary file: no serialized copy of it in either process, and
   * none kept in the queue's memory while the child works. Deleted by ExtractionProcess once the job is answered.
   */
  private async writeTempFile(job: Job): Promise<string> {
    this.tempDir ??= fs.mkdtempSync(path.join(os.tmpdir(), `doc-chat-extraction-${process.pid}-`));
    const file = path.join(this.tempDir, `document-${job.id}`);
    await fs.promises.writeFile(file, job.bytes!, { mode: 0o600 });
    job.bytes = undefined; // a 40 MB document is not held by the server for the whole extraction
    return file;
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
