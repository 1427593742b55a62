import { DomainError, JobStoppedError, RecordsUnavailableError, UnprocessableDocumentError } from '../domain/errors.js';
import type { ExtractedPage, IngestCheckpoint, IngestJob } from '../domain/model.js';
import { DOCUMENT_TYPES } from '../domain/content-types.js';
import { sniffContentType, UPLOAD_CHANGED } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { DocumentClassifier } from '../ports/document-classifier.js';
import type { DocumentAttachment, DocumentReader } from '../ports/document-reader.js';
import type { Embedder } from '../ports/embedder.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Logger } from '../ports/logger.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { UploadRepo } from '../ports/upload-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { DEFAULT_CHUNKING, type ChunkingOptions } from '../rag/chunking.js';
import { progressWriter } from './ingest-progress.js';
import { DEFAULT_INGEST_RETRY, sleep, stalledRuns, type IngestRetrySettings } from './ingest-retry.js';
import { PageIndexer, type PageCheckpoint } from './page-indexer.js';
import type { MailAttachments } from './mail-attachments.js';
import { UnitLabelList } from './unit-labels.js';
import { KIND_TAG } from './start-ingestion.js';
import { cutShort, describe, diedOnPage, internalFailure, noReadableText, OUT_OF_DISK_SPACE_REASON, userFacingReason } from './ingest-failure-reasons.js';
import { UNWATCHED_SPACE, withReleasedReserve } from './space-reserve.js';
import { scanStored, storedPieces } from './stored-file.js';

export { DEFAULT_INGEST_RETRY, type IngestRetrySettings } from './ingest-retry.js';

export interface RunIngestionDeps {
  jobs: IngestJobRepo;
  blobs: BlobStore;
  uploads: UploadRepo;
  reader: DocumentReader;
  indexes: VectorIndex[];
  embedder?: Embedder;
  clock: Clock;
  logger: Logger;
  chunking?: ChunkingOptions;
  retry?: Partial<IngestRetrySettings>;
  /** Tells a full disk from other failures, and holds back the space that records a job's failure (default: none). */
  space?: StorageSpace;
  /** Tells each document's kind from its pages (default: none; a `document_kind` tag is taken as it is). */
  classifier?: DocumentClassifier;
  /** Makes the attachments a reader reports (an e-mail's) documents of their own (default: they are left out). */
  attachments?: MailAttachments;
}

/** Writes of a job's `failed` status tried before giving up (the lease then has the job run again). */
const FAILED_WRITE_TRIES = 5;

const NEVER_ABORTED = new AbortController().signal;

/**
 * Processes one ingest job: read → extract → chunk → embed → index. Safe to run again on the same job (after a crash
 * or restart): chunk ids derive from the job, the job records a checkpoint as its pages are indexed (at least every
 * CHECKPOINT_MS), a later run reads on from the page after it, each index first drops what an earlier run wrote past
 * it, and the job is marked completed only once every index holds all its chunks. A failure removes the job's chunks
 * (as far as the indexes allow; chunks of a job that is not completed are never cited anyway).
 */
export class RunIngestion {
  private readonly retry: IngestRetrySettings;
  private readonly space: StorageSpace;

  constructor(private readonly deps: RunIngestionDeps) {
    this.retry = { ...DEFAULT_INGEST_RETRY, ...deps.retry };
    this.space = deps.space ?? UNWATCHED_SPACE;
  }

  /**
   * Runs the job to completed or failed. `signal` (from the queue) stops it between stages and stops its extraction:
   * when cancelled its chunks are dropped and nothing more is written; at shutdown it is left unfinished (resumed at
   * next start). An internal error (a failed status write, a crashed extraction process) is retried after a backoff,
   * from the job's checkpoint. Runs that index no further page, counting those a crash of the service cut short, are
   * allowed maxAttempts in a row; and when two runs in a row died reading the same page, that page is named and the
   * job failed (a document whose page kills the process reading it would otherwise kill every worker it reaches).
   * A document's own problem is not retried. `finishing` (the queue's, see JobHandler) is called once the document's
   * last pages are being read: the rest of the job (those pages, indexing, completion) leaves the extraction
   * processes free for the next document.
   */
  async execute(jobId: string, signal: AbortSignal = NEVER_ABORTED, finishing: () => void = () => {}): Promise<void> {
    const { maxAttempts, backoffMs } = this.retry;
    for (;;) {
      const job = await this.deps.jobs.findById(jobId);
      if (!job || job.status === 'completed' || job.status === 'failed' || signal.aborted) return;
      const attempt = (job.attempts ?? 0) + 1;
      // The page the previous run was reading when it died (it recorded no outcome), and the one before it.
      if (job.readingPage !== undefined && job.readingPage === job.diedOnPage) {
        this.deps.logger.error('ingest job died twice on one page', { jobId, page: job.readingPage, attempts: attempt - 1 });
        await this.dropChunks(jobId);
        await this.markFailed(jobId, diedOnPage(job.readingPage));
        return;
      }
      if (stalledRuns(job) >= maxAttempts) {
        this.deps.logger.error('ingest job gave up', { jobId, attempts: attempt - 1, checkpoint: job.checkpoint?.pages });
        await this.dropChunks(jobId);
        await this.markFailed(jobId, cutShort(maxAttempts));
        return;
      }
      const stalled = await this.attempt(job, attempt, signal, finishing);
      if (stalled === 'done') return;
      await sleep(backoffMs * 2 ** Math.max(0, stalled - 1), signal);
    }
  }

  /** One run: 'done' when the job is settled (or stopped), else the runs in a row without progress, this one included. */
  private async attempt(job: IngestJob, attempt: number, signal: AbortSignal, finishing: () => void): Promise<'done' | number> {
    const { logger } = this.deps;
    const heartbeat = setInterval(() => void this.touch(job.id), this.retry.heartbeatMs);
    try {
      await this.process(job, attempt, signal, finishing);
      return 'done';
    } catch (error) {
      if (signal.aborted) {
        await this.stopped(job.id, attempt, signal.reason);
        return 'done';
      }
      if (this.space.isExhausted(error)) {
        // Trying again cannot help until space is freed. The failure is recorded first (with the space held back for
        // it if need be), then the chunks go: deleting them needs space too.
        logger.error('ingest job failed: out of disk space', { jobId: job.id, attempt, error: describe(error) });
        await this.markFailed(job.id, OUT_OF_DISK_SPACE_REASON);
        await this.dropChunks(job.id);
        return 'done';
      }
      // The records' database down is no fault of the document: retried like an internal error, never failed at once.
      const internal = !(error instanceof DomainError) || error instanceof RecordsUnavailableError;
      const stalled = internal ? await this.settleRetry(job, attempt) : undefined;
      if (stalled !== undefined && stalled < this.retry.maxAttempts) {
        // Its chunks up to the checkpoint stay: the next run goes on from there.
        logger.warn('ingest attempt failed; retrying', { jobId: job.id, attempt, stalled, error: describe(error) });
        return stalled;
      }
      await this.dropChunks(job.id);
      const reason = internal && (stalled ?? attempt) > 1 ? internalFailure(stalled ?? attempt) : userFacingReason(error);
      if (internal) logger.error('ingest job failed', { jobId: job.id, attempt, error: describe(error) });
      else logger.warn('ingest job failed', { jobId: job.id, reason });
      await this.markFailed(job.id, reason);
      return 'done';
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * A run that failed with an internal error ended (it did not die): it is no page's death. Returns the runs in a row
   * without progress, this one included; undefined when the job is gone.
   */
  private async settleRetry(job: IngestJob, attempt: number): Promise<number | undefined> {
    try {
      const now = await this.deps.jobs.update(job.id, { readingPage: undefined });
      return now ? stalledRuns(now) : undefined;
    } catch (error) {
      // The records unreachable: counted as if this run got no further than where it started.
      this.deps.logger.warn('could not read an ingest job to retry it', { jobId: job.id, error: String(error) });
      return stalledRuns({ ...job, attempts: attempt });
    }
  }

  private async process(job: IngestJob, attempt: number, signal: AbortSignal, tellFinishing: () => void): Promise<void> {
    let told = false;
    const finishing = () => {
      if (!told) (told = true), tellFinishing();
    };
    const { blobs, reader, indexes, embedder } = this.deps;
    /** The page the reader is on, recorded with progress (undefined while not reading): where a run dying now died. */
    const reading: { page?: number; ocr?: boolean } = {};
    const progress = progressWriter({ jobs: this.deps.jobs, logger: this.deps.logger, now: () => this.now() }, job.id, reading);
    // The page the previous run was reading, if it died reading one, is where it died (see execute).
    const started = await this.deps.jobs.update(job.id, {
      status: 'processing', stage: 'reading', progress: 0, attempts: attempt, diedOnPage: job.readingPage, readingPage: undefined, updatedAt: this.now(),
    });
    if (!started) return;

    // One pass over the stored file for its hash, size and type; the reader reads it again itself. Neither pass holds
    // it whole here: ten documents of 40 MB starting at once would otherwise be 400 MB in this process.
    const { sha256, size, head } = await scanStored(blobs, job.key);
    await this.checkUnchanged(job.key);
    if (size === 0) throw new UnprocessableDocumentError('The uploaded file is empty');
    const twin = await this.deps.jobs.findCompletedBySha256(job.sessionId, sha256);
    if (twin && twin.id !== job.id && sameTags(twin.tags, job.tags)) {
      // Same bytes, same tags, same session: the chunks already there answer for this upload too (and what an earlier
      // run of this job indexed goes: they would be cited twice).
      if (job.checkpoint) await this.dropChunks(job.id);
      await this.deps.jobs.update(job.id, {
        status: 'completed', stage: undefined, progress: 1, sha256, reusedFrom: twin.id, pages: twin.pages, chunks: twin.chunks, kind: twin.kind, units: twin.units,
        checkpoint: undefined, readingPage: undefined, diedOnPage: undefined, updatedAt: this.now(),
      });
      return;
    }
    // A checkpoint of other bytes (the object was replaced) is no place to go on from.
    const from = job.checkpoint && (job.sha256 === undefined || job.sha256 === sha256) ? job.checkpoint : undefined;
    await this.deps.jobs.update(job.id, { sha256, ...(!from && job.checkpoint && { checkpoint: undefined }), updatedAt: this.now() });

    // The type was checked against the accepted ones when the job started; the reader checks it against the content.
    const contentType = Object.hasOwn(DOCUMENT_TYPES, job.contentType) ? job.contentType : sniffContentType(head);
    if (!contentType) throw new UnprocessableDocumentError('The file is neither a PDF nor a JPEG image');
    signal.throwIfAborted();
    const firstPage = (from?.pages ?? 0) + 1;
    reading.page = firstPage; // recorded before reading starts: a run that dies from here on died reading
    if (!(await progress('extracting', 0.05, true))) return;

    // One signal stops the reader and the indexer: the queue's (cancelled, shutdown) or the job found gone.
    const run = new AbortController();
    const stopRun = () => run.abort(signal.reason);
    signal.addEventListener('abort', stopRun, { once: true });
    progress.onGone(() => run.abort(new JobStoppedError('cancelled')));
    const chunking = this.deps.chunking ?? DEFAULT_CHUNKING;
    // Unit labels by page (a workbook's sheets), an earlier run's included: recorded with each checkpoint, as a run
    // going on from one reads no page before it.
    const units = new UnitLabelList(from ? job.units?.slice(0, from.pages) : undefined);
    const onCheckpoint = (checkpoint: PageCheckpoint) =>
      this.recordCheckpoint(job.id, { ...checkpoint, run: attempt }, reading.page && Math.max(reading.page, checkpoint.pages + 1), units.upTo(checkpoint.pages));
    const { checkpointMs } = this.retry;
    const indexer = new PageIndexer(job, { indexes, embedder, chunking, from, onCheckpoint, checkpointMs }, run.signal, (error) => run.abort(error));
    // The kind is counted from the pages as they pass (a run going on from a checkpoint counts the pages it reads).
    const tally = job.tags[KIND_TAG] === undefined ? this.deps.classifier?.start() : undefined;
    const handOver = (batch: ExtractedPage[]) => {
      for (const page of batch) {
        tally?.addPage(page.text);
        units.add(page);
      }
      indexer.push(batch);
    };
    let fraction = 0;
    let attachments: DocumentAttachment[] = [];
    const recordProgress = () =>
      progress(reading.ocr ? 'recognizing' : 'extracting', 0.05 + 0.85 * fraction).catch((error: unknown) =>
        this.deps.logger.warn('could not record ingest progress', { jobId: job.id, error: String(error) }),
      );
    try {
      const pages = await reader.read({
        document: () => storedPieces(blobs, job.key),
        contentType,
        firstPage,
        onPages: handOver,
        // Not awaited, so never left to reject: a progress write the database refused (SQLITE_BUSY) is worth a line;
        // unhandled it ended the service. The next one, or the forced writes, record the stage anyway.
        onProgress: (done) => {
          fraction = done;
          void recordProgress();
        },
        onReading: (page, ocr) => {
          reading.page = page;
          reading.ocr = ocr === true;
          void recordProgress();
        },
        // The page count known early: the job record says "page 52 of 194" while it is read (pages read once done).
        onPageCount: (count) => {
          this.deps.jobs.update(job.id, { pages: count }).catch((error: unknown) =>
            this.deps.logger.warn('could not record the page count', { jobId: job.id, error: String(error) }),
          );
        },
        onLastPagesStarted: finishing,
        onAttachments: (found) => (attachments = found),
        signal: run.signal,
      });
      // The reader read the file after the scan: one replaced in between is not the file that was hashed (the job
      // fails, and what was indexed from it goes, as for any failure).
      await this.checkUnchanged(job.key);
      finishing(); // a reader that did not say so earlier: extraction is over, indexing what is left follows
      reading.page = undefined;
      // Before the mail completes: a run cut short from here on is resumed, and finds the attachments it made.
      await this.deps.attachments?.file(job, attachments, run.signal);
      // A reader that handed over no pages (or not all) as it went: the rest are indexed now.
      if (indexer.pagesSeen < pages.length) handOver(pages.slice(indexer.pagesSeen));
      if (!(await progress(embedder ? 'embedding' : 'indexing', 0.92, true))) return;
      const chunks = await indexer.finish();
      const pageCount = firstPage - 1 + pages.length;
      if (chunks === 0) throw noReadableText(pageCount, indexer.ocrSkippedPages);
      signal.throwIfAborted(); // cancelled while indexing: the caller drops what was just added

      await progress.stop(); // no progress write may land after `completed`
      const done = await this.deps.jobs.update(job.id, {
        status: 'completed', stage: undefined, progress: 1, error: undefined, pages: pageCount, chunks, kind: job.tags[KIND_TAG] ?? tally?.kind(), units: units.upTo(pageCount),
        ocrSkippedPages: indexer.ocrSkippedPages > 0 ? indexer.ocrSkippedPages : undefined,
        checkpoint: undefined, readingPage: undefined, diedOnPage: undefined, updatedAt: this.now(),
      });
      // The session was deleted while we worked: what we just indexed belongs to nobody.
      if (!done) await this.dropChunks(job.id);
    } catch (error) {
      // The job was deleted with its session while it ran: nothing to report to, only its chunks to remove.
      if (progress.gone) return;
      // An index that failed stopped the reading: its error, not the reader's "cancelled", is what happened.
      throw indexer.error ?? error;
    } finally {
      await progress.stop();
      signal.removeEventListener('abort', stopRun);
      // Nothing may be written after this run ends: a later dropChunks must find every chunk it added.
      await indexer.settled();
      if (progress.gone) await this.dropChunks(job.id);
    }
  }

  /**
   * Refuses an object replaced since its first ingest recorded its version (an S3 URL used again while the job
   * waited). Checked after the read: a replacement before or during it shows in the version.
   */
  private async checkUnchanged(key: string): Promise<void> {
    const recorded = (await this.deps.uploads.findByKey(key))?.etag;
    if (recorded === undefined) return;
    const current = (await this.deps.blobs.stat(key))?.etag;
    if (current !== undefined && current !== recorded) throw new UnprocessableDocumentError(UPLOAD_CHANGED);
  }

  /**
   * A run its signal stopped. Cancelled: its chunks go (the job is being deleted). Either way the attempt is not
   * counted, as the job did not fail; a job still there (a shutdown, or a session deletion that failed) stays
   * unfinished and is resumed at the next start or when its lease expires.
   */
  private async stopped(jobId: string, attempt: number, reason: unknown): Promise<void> {
    const cancelled = !(reason instanceof JobStoppedError && reason.why === 'shutdown');
    if (cancelled) await this.dropChunks(jobId);
    this.deps.logger.info(cancelled ? 'ingest job cancelled' : 'ingest job interrupted by shutdown', { jobId });
    // Stopped, not dead: the page it was reading is no page it died on.
    await this.deps.jobs.update(jobId, { attempts: attempt > 1 ? attempt - 1 : undefined, readingPage: undefined }).catch((error: unknown) =>
      this.deps.logger.warn('could not uncount an interrupted ingest attempt', { jobId, error: String(error) }),
    );
  }

  /**
   * Records that the pages so far are in every index, and that a run dying now dies on the page after them. A write
   * that fails is only logged: the run goes on, and a later checkpoint records the same and more.
   */
  private async recordCheckpoint(jobId: string, checkpoint: IngestCheckpoint, readingPage: number | undefined, units: string[] | undefined): Promise<void> {
    await this.deps.jobs.update(jobId, { checkpoint, readingPage, ...(units && { units }), updatedAt: this.now() }).catch((error: unknown) =>
      this.deps.logger.warn('could not record an ingest checkpoint', { jobId, pages: checkpoint.pages, error: String(error) }),
    );
  }

  /**
   * Writes `failed`, retrying with backoff: a job must not stay `processing` because one write failed. On a full disk
   * the space held back for such records is released for it.
   */
  private async markFailed(jobId: string, reason: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        // Its chunks were dropped: no checkpoint stands for them any more.
        await withReleasedReserve(this.space, () =>
          this.deps.jobs.update(jobId, { status: 'failed', stage: undefined, error: reason, checkpoint: undefined, readingPage: undefined, updatedAt: this.now() }),
        );
        return;
      } catch (error) {
        if (tries >= FAILED_WRITE_TRIES) {
          // Left `processing`: its lease expires and ResumeIngestion runs it again (counting an attempt).
          this.deps.logger.error('could not record the failure of an ingest job', { jobId, reason, error: String(error) });
          return;
        }
        await sleep(this.retry.backoffMs * 2 ** (tries - 1));
      }
    }
  }

  /** The heartbeat: a running job's updatedAt stays within its lease even on a page that takes minutes. */
  private async touch(jobId: string): Promise<void> {
    await this.deps.jobs.update(jobId, { updatedAt: this.now() }).catch((error: unknown) =>
      this.deps.logger.warn('could not refresh a running ingest job', { jobId, error: String(error) }),
    );
  }

  /**
   * Removes the job's chunks from every index, going on past an index that fails (e.g. Chroma down) so the others
   * are still cleaned. Failures are only logged: what stays behind is never cited, as AskQuestion keeps only chunks
   * of completed jobs.
   */
  private async dropChunks(jobId: string): Promise<void> {
    for (const [i, index] of this.deps.indexes.entries()) {
      await index.deleteByJob(jobId).catch((error: unknown) =>
        this.deps.logger.error('could not remove chunks of an ingest job from an index', {
          jobId, index: i, kind: index.kind, error: String(error),
        }),
      );
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function sameTags(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
