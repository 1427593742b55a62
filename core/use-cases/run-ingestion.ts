import { createHash } from 'node:crypto';
import { DomainError, JobStoppedError, NotFoundError, RecordsUnavailableError, UnprocessableDocumentError } from '../domain/errors.js';
import type { ExtractedPage, IngestJob, IngestStage } from '../domain/model.js';
import { isAllowedContentType, sniffContentType, UPLOAD_CHANGED } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { DocumentReader } from '../ports/document-reader.js';
import type { Embedder } from '../ports/embedder.js';
import type { IngestJobPatch, IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Logger } from '../ports/logger.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { UploadRepo } from '../ports/upload-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { DEFAULT_CHUNKING, type ChunkingOptions } from '../rag/chunking.js';
import { PageIndexer } from './page-indexer.js';
import { describe, internalFailure, noReadableText, OUT_OF_DISK_SPACE_REASON, userFacingReason } from './ingest-failure-reasons.js';
import { UNWATCHED_SPACE, withReleasedReserve } from './space-reserve.js';
import { scanStored, storedPieces } from './stored-file.js';

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
}

/** How hard a job is tried before it is failed, and how a running one shows it is alive. */
export interface IngestRetrySettings {
  /** Runs a job may start (a crash of the service mid-run counts as one) before it is failed. */
  maxAttempts: number;
  /** Wait before retrying within the process, doubled each time; also the first wait between writes of `failed`. */
  backoffMs: number;
  /** While a job runs, its updatedAt is refreshed at least this often, even when no page is done meanwhile. */
  heartbeatMs: number;
  /** An unfinished job whose updatedAt is older than this is no longer run by anyone: ResumeIngestion enqueues it. */
  leaseMs: number;
}

export const DEFAULT_INGEST_RETRY: IngestRetrySettings = { maxAttempts: 3, backoffMs: 1000, heartbeatMs: 15_000, leaseMs: 60_000 };
/** Writes of a job's `failed` status tried before giving up (the lease then has the job run again). */
const FAILED_WRITE_TRIES = 5;

const NEVER_ABORTED = new AbortController().signal;
/** Progress is written at most this often, so a 117-page document does not cost hundreds of writes. */
const PROGRESS_INTERVAL_MS = 400;

/**
 * Processes one ingest job: read → extract → chunk → embed → index. Safe to run again on the same job (after a crash
 * or restart): chunk ids derive from the job, each index first drops what an earlier run of the job left, and the job
 * is marked completed only once every index holds all its chunks. A failure removes the job's chunks again (as far
 * as the indexes allow; chunks of a job that is not completed are never cited anyway).
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
   * up to maxAttempts runs in all, counting runs a crash of the service cut short; a document's own problem is not.
   * `finishing` (the queue's, see JobHandler) is called once the document's last pages are being read: the rest of
   * the job (those pages, indexing, completion) leaves the extraction processes free for the next document.
   */
  async execute(jobId: string, signal: AbortSignal = NEVER_ABORTED, finishing: () => void = () => {}): Promise<void> {
    const { maxAttempts, backoffMs } = this.retry;
    for (;;) {
      const job = await this.deps.jobs.findById(jobId);
      if (!job || job.status === 'completed' || job.status === 'failed' || signal.aborted) return;
      const attempt = (job.attempts ?? 0) + 1;
      if (attempt > maxAttempts) {
        this.deps.logger.error('ingest job gave up', { jobId, attempts: maxAttempts });
        await this.markFailed(jobId, `Ingestion was started ${maxAttempts} times without finishing (each run was cut short); upload the document again, and report it if this persists`);
        return;
      }
      if ((await this.attempt(job, attempt, signal, finishing)) === 'done') return;
      await sleep(backoffMs * 2 ** (attempt - 1), signal);
    }
  }

  private async attempt(job: IngestJob, attempt: number, signal: AbortSignal, finishing: () => void): Promise<'done' | 'retry'> {
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
      await this.dropChunks(job.id);
      // The records' database down is no fault of the document: retried like an internal error, never failed at once.
      const internal = !(error instanceof DomainError) || error instanceof RecordsUnavailableError;
      if (internal && attempt < this.retry.maxAttempts) {
        logger.warn('ingest attempt failed; retrying', { jobId: job.id, attempt, error: describe(error) });
        return 'retry';
      }
      const reason = internal && attempt > 1 ? internalFailure(attempt) : userFacingReason(error);
      if (internal) logger.error('ingest job failed', { jobId: job.id, attempt, error: describe(error) });
      else logger.warn('ingest job failed', { jobId: job.id, reason });
      await this.markFailed(job.id, reason);
      return 'done';
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async process(job: IngestJob, attempt: number, signal: AbortSignal, tellFinishing: () => void): Promise<void> {
    let told = false;
    const finishing = () => {
      if (!told) (told = true), tellFinishing();
    };
    const { blobs, reader, indexes, embedder } = this.deps;
    const progress = this.progressWriter(job.id);
    const started = await this.deps.jobs.update(job.id, { status: 'processing', stage: 'reading', progress: 0, attempts: attempt, updatedAt: this.now() });
    if (!started) return;

    // One pass over the stored file for its hash, size and type; the reader reads it again itself. Neither pass holds
    // it whole here: ten documents of 40 MB starting at once would otherwise be 400 MB in this process.
    const { sha256, size, head } = await scanStored(blobs, job.key);
    await this.checkUnchanged(job.key);
    if (size === 0) throw new UnprocessableDocumentError('The uploaded file is empty');
    const twin = await this.deps.jobs.findCompletedBySha256(job.sessionId, sha256);
    if (twin && twin.id !== job.id && sameTags(twin.tags, job.tags)) {
      // Same bytes, same tags, same session: the chunks already there answer for this upload too.
      await this.deps.jobs.update(job.id, {
        status: 'completed', stage: undefined, progress: 1, sha256, reusedFrom: twin.id,
        pages: twin.pages, chunks: twin.chunks, updatedAt: this.now(),
      });
      return;
    }
    await this.deps.jobs.update(job.id, { sha256, updatedAt: this.now() });

    const contentType = isAllowedContentType(job.contentType) ? job.contentType : sniffContentType(head);
    if (!contentType) throw new UnprocessableDocumentError('The file is neither a PDF nor a JPEG image');
    signal.throwIfAborted();
    if (!(await progress('extracting', 0.05, true))) return;

    // One signal stops the reader and the indexer: the queue's (cancelled, shutdown) or the job found gone.
    const run = new AbortController();
    const stopRun = () => run.abort(signal.reason);
    signal.addEventListener('abort', stopRun, { once: true });
    progress.onGone(() => run.abort(new JobStoppedError('cancelled')));
    const chunking = this.deps.chunking ?? DEFAULT_CHUNKING;
    const indexer = new PageIndexer(job, { indexes, embedder, chunking }, run.signal, (error) => run.abort(error));
    try {
      const pages = await reader.read({
        document: () => storedPieces(blobs, job.key),
        contentType,
        onPages: (batch) => indexer.push(batch),
        // Not awaited, so never left to reject: a progress write the database refused (SQLITE_BUSY) is worth a line;
        // unhandled it ended the service. The next one, or the forced writes, record the stage anyway.
        onProgress: (fraction) => {
          progress('extracting', 0.05 + 0.85 * fraction).catch((error: unknown) =>
            this.deps.logger.warn('could not record ingest progress', { jobId: job.id, error: String(error) }),
          );
        },
        onLastPagesStarted: finishing,
        signal: run.signal,
      });
      // The reader read the file after the scan: one replaced in between is not the file that was hashed (the job
      // fails, and what was indexed from it goes, as for any failure).
      await this.checkUnchanged(job.key);
      finishing(); // a reader that did not say so earlier: extraction is over, indexing what is left follows
      // A reader that handed over no pages (or not all) as it went: the rest are indexed now.
      if (indexer.pagesSeen < pages.length) indexer.push(pages.slice(indexer.pagesSeen));
      if (!(await progress(embedder ? 'embedding' : 'indexing', 0.92, true))) return;
      const chunks = await indexer.finish();
      if (chunks === 0) throw noReadableText(pages, indexer.ocrSkippedPages);
      signal.throwIfAborted(); // cancelled while indexing: the caller drops what was just added

      const done = await this.deps.jobs.update(job.id, {
        status: 'completed', stage: undefined, progress: 1, error: undefined, pages: pages.length, chunks,
        ocrSkippedPages: indexer.ocrSkippedPages > 0 ? indexer.ocrSkippedPages : undefined, updatedAt: this.now(),
      });
      // The session was deleted while we worked: what we just indexed belongs to nobody.
      if (!done) await this.dropChunks(job.id);
    } catch (error) {
      // The job was deleted with its session while it ran: nothing to report to, only its chunks to remove.
      if (progress.gone) return;
      // An index that failed stopped the reading: its error, not the reader's "cancelled", is what happened.
      throw indexer.error ?? error;
    } finally {
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
   * Returns a function that records stage and progress (throttled unless forced) and tells whether the job still
   * exists; a job deleted with its session stops the run (through onGone).
   */
  private progressWriter(jobId: string) {
    let lastWrite = 0;
    let goneListener: (() => void) | undefined;
    const write = Object.assign(
      async (stage: IngestStage, fraction: number, force = false): Promise<boolean> => {
        const now = Date.now();
        if (write.gone || (!force && now - lastWrite < PROGRESS_INTERVAL_MS)) return !write.gone;
        lastWrite = now;
        const patch: IngestJobPatch = { status: 'processing', stage, progress: Math.min(1, Math.round(fraction * 1000) / 1000), updatedAt: this.now() };
        if ((await this.deps.jobs.update(jobId, patch)) === null && !write.gone) {
          write.gone = true;
          goneListener?.();
        }
        return !write.gone;
      },
      { gone: false, onGone: (listener: () => void) => void (goneListener = listener) },
    );
    return write;
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
    await this.deps.jobs.update(jobId, { attempts: attempt > 1 ? attempt - 1 : undefined }).catch((error: unknown) =>
      this.deps.logger.warn('could not uncount an interrupted ingest attempt', { jobId, error: String(error) }),
    );
  }

  /**
   * Writes `failed`, retrying with backoff: a job must not stay `processing` because one write failed. On a full disk
   * the space held back for such records is released for it.
   */
  private async markFailed(jobId: string, reason: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await withReleasedReserve(this.space, () =>
          this.deps.jobs.update(jobId, { status: 'failed', stage: undefined, error: reason, updatedAt: this.now() }),
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

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
