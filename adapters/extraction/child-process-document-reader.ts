import fs from 'node:fs';
import path from 'node:path';
import { ReadCancelledError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';
import { resolveDocumentKind, type DocumentKind } from './content-type.js';
import { writeDocumentFile } from './document-file.js';
import type { ExtractionSettings } from './document-extractor.js';
import { DocumentRead } from './document-read.js';
import { ExtractionProcess, type ProcessLimits } from './extraction-process.js';
import type { WorkerStartData } from './protocol.js';
import { DEFAULT_EXTRACTION_SCHEDULING, type ExtractionScheduling } from './background-priority.js';
import { makeProcessTempDir, removeOrphanedTempDirsOnce } from '../system/process-temp-dir.js';

export interface ChildProcessDocumentReaderOptions extends Partial<ExtractionSettings>, Partial<ProcessLimits> {
  /** Child processes, i.e. documents extracted in parallel. Default 1 (OCR is CPU-heavy; leave cores to the API). */
  poolSize?: number;
  /**
   * The children's CPU niceness, 0-19 (default 10): extraction is background work, so when the machine is busy the
   * kernel runs the API's requests first and extraction takes what they leave.
   */
  niceness?: number;
  /**
   * 'nice' (default): the niceness alone. 'idle': the children also take Linux's SCHED_IDLE policy, so a request
   * never waits for them, but under a load that fills every core they get almost no CPU (see background-priority.ts).
   */
  scheduling?: ExtractionScheduling;
  /**
   * TEST ONLY, never set from configuration: a child that receives a document containing this text kills itself
   * with SIGSEGV, like a native crash in @napi-rs/canvas would. Proves the server survives such crashes.
   */
  crashOnMarkerForTests?: string;
  /**
   * A PDF with more pages is read as ranges of this many pages, by as many processes as are free (default
   * DEFAULT_RANGE_PAGES). Tests set it low to get several ranges from a short document.
   */
  rangePages?: number;
}

/**
 * 50 pages. A user's documents are ingested one at a time (INGEST_PER_USER_CONCURRENCY), so with 200-page ranges a
 * year of ~100-page filings read on one process: 138-142 pages/s for 30 filings, 173 with 50-page ranges, while the
 * 4,557-page merged PDF stayed at 0.58-0.60 of raw pdf-parse (bench/long-documents.ts). A process keeps the PDF open
 * for its next range of the same document, so a range costs little more than its pages; and a document that arrives
 * while every process reads another's ranges waits for at most 50 pages.
 */
export const DEFAULT_RANGE_PAGES = 50;

/** A range that holds every page of any document. */
const WHOLE_DOCUMENT = 1_000_000_000;

export const DEFAULT_EXTRACTION_SETTINGS: ExtractionSettings = {
  renderDpi: 300,
  maxImagePixels: 24_000_000, // ~A4 at 500 dpi or a 24 MP photo; bigger images are scaled down for OCR
  minTextCharsPerPage: 16,
  maxPages: 10_000,
  maxOcrPages: 100,
  maxSheetRows: 100_000,
  maxUnpackedBytes: 256 * 1_048_576,
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

/**
 * DocumentReader that parses and OCRs in child processes, so a 5,000-page PDF or a large photo never blocks the API's
 * event loop, and a native crash (a segfault or panic in canvas), running out of memory, or a hang in a parser takes
 * down only that child, never the server. Documents queue for a small pool of children (ExtractionProcess); a PDF
 * longer than rangePages is read as page ranges by every free child at once (DocumentRead puts them back in order).
 * A document that has not started gets the next free child before further ranges of running ones, which take turns:
 * another user's small PDF starts as soon as any range ends. A child that crashes, times out or is cancelled answers
 * its range and is replaced when there is more to read. Idle children exit after a while. Call close() on shutdown.
 */
export class ChildProcessDocumentReader implements DocumentReader {
  private readonly poolSize: number;
  private readonly limits: ProcessLimits;
  private readonly startData: WorkerStartData;
  private readonly rangePages: number;
  private readonly processes = new Set<ExtractionProcess>();
  /** Documents not settled, in arrival order. */
  private documents: DocumentRead[] = [];
  /** The running document that got the last range (round-robin among running documents). */
  private lastServed = 0;
  private tempDir?: string;
  private nextId = 1;
  private closed = false;

  constructor(options: ChildProcessDocumentReaderOptions = {}) {
    const { poolSize = 1, niceness = DEFAULT_EXTRACTION_NICENESS, scheduling = DEFAULT_EXTRACTION_SCHEDULING, crashOnMarkerForTests, rangePages = DEFAULT_RANGE_PAGES, pageTimeoutMs, msPerPage, maxMemoryMb, recycleAfterPages, idleMs, ...settings } = options;
    if (!Number.isInteger(poolSize) || poolSize < 1) throw new RangeError('poolSize must be a positive integer');
    if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) throw new RangeError('niceness must be a whole number from 0 to 19');
    if (!Number.isInteger(rangePages) || rangePages < 1) throw new RangeError('rangePages must be a positive integer');
    this.poolSize = poolSize;
    this.rangePages = rangePages;
    this.limits = { ...DEFAULT_PROCESS_LIMITS, ...definedOnly({ pageTimeoutMs, msPerPage, maxMemoryMb, recycleAfterPages, idleMs }) };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer`);
    }
    const merged = { ...DEFAULT_EXTRACTION_SETTINGS, ...definedOnly(settings) };
    // At start, not at the first upload: copies of documents a killed server was reading go at once.
    removeOrphanedTempDirsOnce(EXTRACTION_TEMP_PREFIX);
    this.startData = {
      settings: merged,
      cleanup: { cleanupAboveHeapMb: Math.floor(this.limits.maxMemoryMb / 2), collectAboveRssMb: Math.floor(this.limits.maxMemoryMb / 4) },
      niceness,
      scheduling,
      ...(crashOnMarkerForTests ? { crashOnMarker: crashOnMarkerForTests } : {}),
    };
  }

  async read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    if (this.closed) throw new Error('The document reader is closed');
    // The callbacks are kept, not the request: its bytes must not outlive the temporary file (see tempFile).
    // No closure below may name `request`: V8 keeps what any closure names in the context they all share, and the
    // upload's bytes with it for the whole extraction (heap snapshot: 36 MB held while a long PDF was read).
    const { signal, onProgress, onReading, onPageCount, onPages, onLastPagesStarted, onAttachments, contentType, firstPage = 1 } = request;
    if (!(Number.isInteger(firstPage) && firstPage >= 1)) throw new RangeError('firstPage must be a positive integer');
    if (signal?.aborted) throw new ReadCancelledError();
    const id = this.nextId++;
    // A document that comes as a stream (a stored one) is copied to its temporary file now, a piece at a time; one
    // that comes as bytes is written when a process starts on it.
    let source: Uint8Array | string | undefined;
    let kind: DocumentKind;
    if (typeof request.document === 'function') {
      const file = await this.tempFile(id);
      try {
        kind = resolveDocumentKind(await writeDocumentFile(request.document, file, signal), contentType);
        if (this.closed) throw new Error('The document reader is closed');
      } catch (error) {
        fs.rm(file, { force: true }, () => {});
        throw signal?.aborted ? new ReadCancelledError() : error;
      }
      source = file;
    } else {
      source = request.document;
      // Type checks happen here, before queueing: a mismatch is answered at once.
      kind = resolveDocumentKind(source, contentType);
    }
    if (kind === 'jpeg' && firstPage > 1) {
      // A photo is one page, and it was read: nothing is left from here.
      if (typeof source === 'string') fs.rm(source, { force: true }, () => {});
      onLastPagesStarted?.();
      return [];
    }
    return new Promise<ExtractedPage[]>((resolve, reject) => {
      let progress = -1;
      const onAbort = () => document.cancel();
      const settle = (answer: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        this.documents = this.documents.filter((other) => other !== document);
        answer();
      };
      const document = new DocumentRead(id, kind, source!, {
        // Only a PDF is read in ranges by several processes; the other formats are read whole by one.
        rangePages: kind === 'pdf' ? this.rangePages : WHOLE_DOCUMENT,
        firstPage,
        maxOcrPages: this.startData.settings.maxOcrPages,
        streamsText: onPages !== undefined,
        writeFile: async (bytes) => {
          const file = await this.tempFile(id);
          await writeDocumentFile(bytes, file);
          return file;
        },
        nextTaskId: () => this.nextId++,
        onWork: () => this.dispatch(),
        // Progress only moves forward; a throwing callback must not break extraction (it runs in an event handler).
        onProgress: (fraction) => {
          if (document.settled || !onProgress || !(fraction > progress)) return;
          progress = fraction;
          try {
            onProgress(fraction);
          } catch {
            // progress is advisory
          }
        },
        onReading: (page, ocr) => {
          try {
            onReading?.(page, ocr);
          } catch {
            // advisory, like progress
          }
        },
        onPageCount: (pages) => {
          try {
            onPageCount?.(pages);
          } catch {
            // advisory, like progress
          }
        },
        onPages: (pages) => onPages?.(pages),
        onAttachments: (attachments) => onAttachments?.(attachments),
        onLastPagesStarted: () => {
          try {
            onLastPagesStarted?.();
          } catch {
            // advisory, like progress
          }
        },
        resolve: (pages) => settle(() => resolve(pages)),
        reject: (error) => settle(() => reject(error)),
      });
      source = undefined; // the document has them until its temporary file does
      signal?.addEventListener('abort', onAbort, { once: true });
      this.documents.push(document);
      this.dispatch();
    });
  }

  /** Ranges being read now: which process (pid) reads which pages of which document. For tests and diagnostics. */
  rangesInFlight(): { document: number; id: number; pid?: number; firstPage: number; lastPage: number; nextPage: number }[] {
    return this.documents.flatMap((document) => document.ranges.map((range) => ({ document: document.id, ...range })));
  }

  /** Rejects queued and running documents and kills the children (resolves once they are gone). */
  async close(): Promise<void> {
    this.closed = true;
    for (const document of [...this.documents]) document.fail(new Error('The document reader was closed'));
    await Promise.all(
      [...this.processes].map((child) => {
        child.stop(new Error('The document reader was closed'));
        return child.exited;
      }),
    );
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true });
  }

  /** Hands ranges to free processes (starting processes up to poolSize) while there are ranges to read. */
  private dispatch(): void {
    while (!this.closed) {
      const document = this.nextDocument();
      if (!document) return;
      let child = [...this.processes].find((candidate) => candidate.available);
      if (!child) {
        if (this.processes.size >= this.poolSize) return;
        child = new ExtractionProcess(this.startData, this.limits, {
          onFree: () => this.dispatch(),
          onExit: (gone) => {
            this.processes.delete(gone);
            this.dispatch(); // starts a replacement if ranges are waiting
          },
        });
        this.processes.add(child);
      }
      this.lastServed = document.id;
      child.run(document.takeRange(child));
    }
  }

  /** A document that has not started yet, first come first served; else the next running one with ranges left, in turn. */
  private nextDocument(): DocumentRead | undefined {
    const waiting = this.documents.find((document) => !document.started && document.hasWork);
    if (waiting) return waiting;
    const running = this.documents.filter((document) => document.hasWork);
    return running.find((document) => document.id > this.lastServed) ?? running[0];
  }

  /**
   * The child reads the document from a private temporary file: no serialized copy of it in either process, and
   * none kept in the queue's memory while the children work. Deleted by DocumentRead once the document is answered.
   */
  private async tempFile(id: number): Promise<string> {
    this.tempDir ??= makeProcessTempDir(EXTRACTION_TEMP_PREFIX);
    return path.join(this.tempDir, `document-${id}`);
  }
}

/** The documents being read live in `<tmpdir>/doc-chat-extraction-<pid>-XXXXXX` (see tempFile). */
const EXTRACTION_TEMP_PREFIX = 'doc-chat-extraction';

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
