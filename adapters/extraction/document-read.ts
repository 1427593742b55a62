import fs from 'node:fs';
import { ReadCancelledError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentAttachment } from '../../core/ports/document-reader.js';
import type { DocumentKind } from './content-type.js';
import { noReadableTextError } from './document-extractor.js';
import { ExtractionWorkerCrashedError } from './errors.js';
import type { RangeTask } from './extraction-process.js';
import type { AttachmentFile } from './protocol.js';
import { countWordCharacters } from './normalize-text.js';
import { RunningHeaderRemover } from './running-headers.js';

/** Whom a document answers, and how it reaches the pool. */
export interface DocumentReadOptions {
  /** Pages per range: a PDF with more is read as ranges, by several processes at once. */
  rangePages: number;
  /** The first page to read (ReadDocumentRequest.firstPage); the pages before it are neither read nor delivered. */
  firstPage: number;
  /** OCR'd pages per document, across all its ranges (MAX_OCR_PAGES). */
  maxOcrPages: number;
  /** The caller takes page texts from onPages: the pages resolve() gets then leave their text out (''). */
  streamsText: boolean;
  /** Writes the document's bytes to a private temporary file, resolving to its path. */
  writeFile(bytes: Uint8Array): Promise<string>;
  /** A unique id for each range handed to a process. */
  nextTaskId(): number;
  /** New ranges can be handed out (the page count is known, or a range is to be read again). */
  onWork(): void;
  onProgress(fraction: number): void;
  /**
   * The earliest page not yet read of the ranges being read, each time it or the way it is read changes
   * (ReadDocumentRequest.onReading): `ocr` when that page is a scan or photo being recognised.
   */
  onReading(page: number, ocr: boolean): void;
  /** The document's page count, once known (ReadDocumentRequest.onPageCount). */
  onPageCount(pages: number): void;
  /** Every range of the document has been handed to a process (called once): it has nothing more to start. */
  onLastPagesStarted(): void;
  /** The document's attachments (ReadDocumentRequest.onAttachments), once, before resolve; not called when none. */
  onAttachments(attachments: DocumentAttachment[]): void;
  /** Pages whose text is final (running headers removed), in page order, each once. Throwing fails the document. */
  onPages(pages: ExtractedPage[]): void;
  resolve(pages: ExtractedPage[]): void;
  reject(error: Error): void;
}

interface PageSpan {
  firstPage: number;
  lastPage: number;
}

interface RangeInFlight extends RangeTask {
  /** The next page the child is to send. */
  nextPage: number;
  /** An OCR grant was given for nextPage, which has not come yet: a crash gives it back. */
  grantPending: boolean;
  /** The range's share of the whole document's progress so far. */
  share: number;
  /** Kills the process reading it (the range is not answered). */
  stop(reason: Error): void;
  pid?: number;
}

/**
 * One document being read (one read() call) as page ranges by any number of extraction processes. It hands out its
 * ranges (the first is read before the page count is known; the rest are cut once the first child reports it),
 * puts the pages that come back out of order into page order, removes running headers over the whole document, keeps
 * its OCR budget exact across ranges, sums the progress of its ranges, and re-reads a range whose child crashed from
 * the first page not yet received (a page that crashes a child twice fails the document).
 */
export class DocumentRead {
  /** A range was handed out: the document is no longer waiting to start. */
  started = false;
  settled = false;
  private total?: number;
  private pending: PageSpan[];
  private readonly inFlight = new Set<RangeInFlight>();
  /** Pages received ahead of the next one to deliver (from later ranges). */
  private readonly ahead = new Map<number, ExtractedPage>();
  private nextToDeliver: number;
  /** Every page delivered, in order (text '' once handed to a streaming caller). */
  private readonly pages: ExtractedPage[] = [];
  private readonly headers: RunningHeaderRemover;
  private ocrTaken = 0;
  private pagesWithText = 0;
  private pagesSkipped = 0;
  private finishedShare = 0;
  /** Pages at which a child crashed (a set: two ranges of one document may each hit a poison page, in turns). */
  private readonly crashedAt = new Set<number>();
  private file?: Promise<string>;
  private bytes?: Uint8Array;
  private lastPagesStarted = false;
  /** The attachments the child reported (an e-mail's), handed over when the document is read. */
  private readonly attachments: DocumentAttachment[] = [];
  private readingPage = 0;
  private readingOcr = false;

  constructor(
    readonly id: number,
    private readonly kind: DocumentKind,
    /** Its bytes, or the temporary file they were already written to. */
    source: Uint8Array | string,
    private readonly options: DocumentReadOptions,
  ) {
    if (typeof source === 'string') this.file = Promise.resolve(source);
    else this.bytes = source;
    this.pending = [{ firstPage: options.firstPage, lastPage: options.firstPage + options.rangePages - 1 }];
    this.nextToDeliver = options.firstPage;
    this.headers = new RunningHeaderRemover((texts, first) => this.deliver(texts, first));
  }

  get hasWork(): boolean {
    return !this.settled && this.pending.length > 0;
  }

  /** Ranges being read now, with the processes reading them. */
  /** `id` grows with each range handed out: the order ranges were given to processes. */
  get ranges(): { id: number; pid?: number; firstPage: number; lastPage: number; nextPage: number }[] {
    return [...this.inFlight].map(({ id, pid, firstPage, lastPage, nextPage }) => ({ id, pid, firstPage, lastPage, nextPage }));
  }

  /** The next range to read (the earliest first: delivery waits on it), for the process behind `stop`. */
  takeRange(process: { pid?: number; cancel(task: RangeTask, reason: Error): void }): RangeTask {
    const span = this.pending.shift()!;
    this.started = true;
    const document = this;
    const range: RangeInFlight = {
      id: this.options.nextTaskId(),
      kind: this.kind,
      ...span,
      nextPage: span.firstPage,
      grantPending: false,
      share: 0,
      pid: process.pid,
      stop: (reason) => process.cancel(range, reason),
      file: () => this.writeFile(),
      onStarted: (pages) => this.onStarted(pages),
      onPages: (pages, fraction) => this.onPages(range, pages, fraction),
      takeOcrPage: () => {
        if (this.settled || this.ocrTaken >= this.options.maxOcrPages) return false;
        this.ocrTaken++;
        range.grantPending = true;
        this.reportReading();
        return true;
      },
      get moreToRead() {
        return document.hasWork;
      },
      resolve: (attachments) => {
        if (attachments) this.takeAttachments(attachments);
        this.onRangeDone(range);
      },
      reject: (error) => this.onRangeFailed(range, error),
    };
    this.inFlight.add(range);
    this.tellIfAllStarted();
    this.reportReading();
    return range;
  }

  /** Stops every range (queued ones are dropped, running ones' processes killed) and rejects the read. */
  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.pending = [];
    for (const range of [...this.inFlight]) range.stop(error);
    this.inFlight.clear();
    this.removeFile();
    this.options.reject(error);
  }

  cancel(): void {
    this.fail(new ReadCancelledError());
  }

  private writeFile(): Promise<string> {
    this.file ??= this.options.writeFile(this.bytes!).then((file) => {
      this.bytes = undefined; // a 40 MB document is not held by the server for the whole extraction
      if (this.settled) fs.rm(file, { force: true }, () => {});
      return file;
    });
    return this.file;
  }

  /** Reads the attachments the child wrote and removes their files at once (a document settled keeps none). */
  private takeAttachments(files: AttachmentFile[]): void {
    for (const { filename, contentType, file } of files) {
      try {
        if (!this.settled) this.attachments.push({ filename, contentType, bytes: fs.readFileSync(file) });
      } finally {
        fs.rmSync(file, { force: true });
      }
    }
  }

  private removeFile(): void {
    this.file?.then((file) => fs.rm(file, { force: true }, () => {}), () => {});
  }

  private onStarted(pages: number): void {
    if (this.total !== undefined || this.settled) return; // a first range read again after a crash
    this.total = pages;
    this.options.onPageCount(pages);
    const size = this.options.rangePages;
    // The pages before the first one to read count as done (for progress, which is the whole document's).
    this.finishedShare = pages > 0 ? Math.min(this.options.firstPage - 1, pages) / pages : 0;
    for (let first = this.options.firstPage + size; first <= pages; first += size) this.pending.push({ firstPage: first, lastPage: Math.min(first + size - 1, pages) });
    if (this.pending.length > 0) this.options.onWork();
    else this.tellIfAllStarted();
  }

  /** Once the page count is known and no range waits (a range re-read after a crash does not call it again). */
  private tellIfAllStarted(): void {
    if (this.lastPagesStarted || this.settled || this.total === undefined || this.pending.length > 0) return;
    this.lastPagesStarted = true;
    this.options.onLastPagesStarted();
  }

  private onPages(range: RangeInFlight, pages: ExtractedPage[], fraction: number): void {
    if (this.settled) return;
    for (const page of pages) {
      if (page.page !== range.nextPage) return this.fail(new Error(`Extraction sent page ${page.page} where page ${range.nextPage} was due`));
      range.nextPage++;
      range.grantPending = false;
      if (countWordCharacters(page.text, 1) > 0) this.pagesWithText++;
      if (page.method === 'ocr-skipped') this.pagesSkipped++;
      this.ahead.set(page.page, page);
    }
    // The child's fraction is its position in the whole document; the range's share is what lies behind it in the range.
    const total = this.total ?? 1;
    range.share = Math.max(range.share, Math.min(fraction, (Math.min(range.lastPage, total)) / total) - (range.firstPage - 1) / total);
    for (let page = this.ahead.get(this.nextToDeliver); page; page = this.ahead.get(this.nextToDeliver)) {
      this.ahead.delete(this.nextToDeliver++);
      this.pages.push(page);
      this.headers.push(page.text);
    }
    this.reportProgress();
    this.reportReading();
  }

  private reportReading(): void {
    if (this.settled || this.inFlight.size === 0) return;
    const earliest = [...this.inFlight].reduce((a, b) => (b.nextPage < a.nextPage ? b : a));
    const page = earliest.nextPage;
    // A photo is all OCR; a PDF's page is when its range was granted OCR for it (a scanned page).
    const ocr = this.kind !== 'pdf' || earliest.grantPending;
    if (page === this.readingPage && ocr === this.readingOcr) return;
    this.readingPage = page;
    this.readingOcr = ocr;
    this.options.onReading(page, ocr);
  }


  /** Pages out of the running-header remover: final, in order. */
  private deliver(texts: string[], first: number): void {
    if (this.settled) return;
    const final = texts.map((text, i) => ({ ...this.pages[first + i], text }));
    // A 5,000-page document's text held until its end would grow the server's heap, and every major GC with it.
    final.forEach((page, i) => (this.pages[first + i] = this.options.streamsText ? { ...page, text: '' } : page));
    try {
      this.options.onPages(final);
    } catch (error) {
      // A caller's failure to take pages stops the document: carrying on would leave pages unaccounted for.
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private reportProgress(): void {
    let share = this.finishedShare;
    for (const range of this.inFlight) share += range.share;
    this.options.onProgress(Math.min(share, 0.999));
  }

  private onRangeDone(range: RangeInFlight): void {
    this.inFlight.delete(range);
    if (this.settled) return;
    this.reportReading();
    const end = Math.min(range.lastPage, this.total ?? 0);
    if (range.nextPage <= end) return this.fail(new Error(`Extraction ended pages ${range.firstPage}-${end} at page ${range.nextPage - 1}`));
    this.finishedShare += this.total ? Math.max(0, end - range.firstPage + 1) / this.total : 0;
    this.finishIfComplete();
  }

  /**
   * A crashed child's range is read again from the first page not received (those received are delivered once), unless
   * a child crashed at that page before: it kills children, and reading it a third time would not help.
   */
  private onRangeFailed(range: RangeInFlight, error: Error): void {
    this.inFlight.delete(range);
    if (this.settled) return;
    if (!(error instanceof ExtractionWorkerCrashedError) || this.crashedAt.has(range.nextPage)) return this.fail(error);
    this.crashedAt.add(range.nextPage);
    if (range.grantPending) this.ocrTaken--; // the page it was for was never read
    this.finishedShare += this.total ? (range.nextPage - range.firstPage) / this.total : 0;
    const end = this.total === undefined ? range.lastPage : Math.min(range.lastPage, this.total);
    if (range.nextPage <= end) {
      this.pending.unshift({ firstPage: range.nextPage, lastPage: range.lastPage });
      this.options.onWork();
    } else {
      this.finishIfComplete();
    }
  }

  private finishIfComplete(): void {
    if (this.total === undefined || this.inFlight.size > 0 || this.pending.length > 0 || this.nextToDeliver <= this.total) return;
    this.headers.end();
    if (this.settled) return; // the caller's onPages failed on the last pages
    // A read going on from a checkpoint may find no text in the rest: the pages before it had some.
    if (this.pagesWithText === 0 && this.options.firstPage === 1) return this.fail(noReadableTextError(this.pagesSkipped, this.options.maxOcrPages));
    this.options.onProgress(1);
    if (this.attachments.length > 0) this.options.onAttachments(this.attachments);
    this.settled = true;
    this.removeFile();
    this.options.resolve(this.pages);
  }
}
