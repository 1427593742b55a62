import { createHash } from 'node:crypto';
import { DomainError, NotFoundError, UnprocessableDocumentError } from '../domain/errors.js';
import type { Chunk, IngestJob, IngestStage } from '../domain/model.js';
import { isAllowedContentType, sniffContentType, UPLOAD_CHANGED } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { DocumentReader } from '../ports/document-reader.js';
import type { Embedder } from '../ports/embedder.js';
import type { IngestJobPatch, IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Logger } from '../ports/logger.js';
import type { UploadRepo } from '../ports/upload-repo.js';
import type { IndexedChunk, VectorIndex } from '../ports/vector-index.js';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../rag/chunking.js';

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
}

const EMBED_BATCH = 64;
/** Progress is written at most this often, so a 117-page document does not cost hundreds of writes. */
const PROGRESS_INTERVAL_MS = 400;

/**
 * Processes one ingest job: read → extract → chunk → embed → index. Safe to run again on the same job (after a crash
 * or restart): chunk ids derive from the job, each index first drops what an earlier run of the job left, and the job
 * is marked completed only once every index holds all its chunks. A failure removes the job's chunks again (as far
 * as the indexes allow; chunks of a job that is not completed are never cited anyway).
 */
export class RunIngestion {
  constructor(private readonly deps: RunIngestionDeps) {}

  async execute(jobId: string): Promise<void> {
    const { jobs, logger } = this.deps;
    const job = await jobs.findById(jobId);
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    try {
      await this.process(job);
    } catch (error) {
      await this.dropChunks(job.id);
      const reason = userFacingReason(error);
      if (!(error instanceof DomainError)) logger.error('ingest job failed', { jobId, error: describe(error) });
      else logger.warn('ingest job failed', { jobId, reason });
      await jobs.update(job.id, { status: 'failed', stage: undefined, error: reason, updatedAt: this.now() });
    }
  }

  private async process(job: IngestJob): Promise<void> {
    const { blobs, reader, indexes, embedder } = this.deps;
    const progress = this.progressWriter(job.id);
    if (!(await progress('reading', 0, true))) return;

    const bytes = await blobs.read(job.key).catch((error) => {
      if (error instanceof NotFoundError) {
        throw new UnprocessableDocumentError('The uploaded file is no longer in storage: upload it again');
      }
      throw error;
    });
    await this.checkUnchanged(job.key);
    if (bytes.length === 0) throw new UnprocessableDocumentError('The uploaded file is empty');
    const sha256 = createHash('sha256').update(bytes).digest('hex');

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

    const contentType = isAllowedContentType(job.contentType) ? job.contentType : sniffContentType(bytes);
    if (!contentType) throw new UnprocessableDocumentError('The file is neither a PDF nor a JPEG image');
    if (!(await progress('extracting', 0.05, true))) return;
    const pages = await reader.read({
      bytes,
      contentType,
      onProgress: (fraction) => void progress('extracting', 0.05 + 0.65 * fraction),
    });

    if (!(await progress('chunking', 0.7, true))) return;
    const drafts = chunkPages(pages, this.deps.chunking ?? DEFAULT_CHUNKING);
    if (drafts.length === 0) throw new UnprocessableDocumentError('The document contains no readable text');
    const chunks: IndexedChunk[] = drafts.map((d): Chunk => ({
      id: `${job.id}:${d.ordinal}`,
      sessionId: job.sessionId,
      jobId: job.id,
      filename: job.filename,
      page: d.page,
      ordinal: d.ordinal,
      text: d.text,
      tags: job.tags,
    }));

    if (embedder) {
      if (!(await progress('embedding', 0.72, true))) return;
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
        const batch = chunks.slice(i, i + EMBED_BATCH);
        const vectors = await embedder.embedDocuments(batch.map((c) => c.text));
        batch.forEach((c, j) => (c.embedding = vectors[j]));
        await progress('embedding', 0.72 + 0.2 * ((i + batch.length) / chunks.length));
      }
    }

    if (!(await progress('indexing', 0.92, true))) return;
    for (const index of indexes) {
      await index.deleteByJob(job.id);
      await index.add(chunks);
    }

    const done = await this.deps.jobs.update(job.id, {
      status: 'completed', stage: undefined, progress: 1, error: undefined,
      pages: pages.length, chunks: chunks.length, updatedAt: this.now(),
    });
    // The session was deleted while we worked: what we just indexed belongs to nobody.
    if (!done) await this.dropChunks(job.id);
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
   * exists; a job deleted with its session stops the run.
   */
  private progressWriter(jobId: string) {
    let lastWrite = 0;
    let alive = true;
    return async (stage: IngestStage, fraction: number, force = false): Promise<boolean> => {
      const now = Date.now();
      if (!alive || (!force && now - lastWrite < PROGRESS_INTERVAL_MS)) return alive;
      lastWrite = now;
      const patch: IngestJobPatch = { status: 'processing', stage, progress: Math.min(1, Math.round(fraction * 1000) / 1000), updatedAt: this.now() };
      alive = (await this.deps.jobs.update(jobId, patch)) !== null;
      if (!alive) await this.dropChunks(jobId);
      return alive;
    };
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

/** What the job's `error` says: the document's own problem as is, a dependency outage as such, anything else generic. */
function userFacingReason(error: unknown): string {
  if (error instanceof UnprocessableDocumentError) return error.message;
  if (error instanceof DomainError && error.code === 'UPSTREAM_UNAVAILABLE') {
    return `A service needed for ingestion is unavailable (${error.message}); the file is kept: ingest it again later`;
  }
  if (error instanceof DomainError) return error.message;
  return 'Ingestion failed because of an internal error; try again, and report it if it persists';
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}
