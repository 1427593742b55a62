import type { Session } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { ErasedUploads, SessionEraser } from '../ports/session-eraser.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { UploadRepo } from '../ports/upload-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { UNWATCHED_SPACE, withReleasedReserve } from './space-reserve.js';
import { SWEEP_GRACE_MS } from './sweep-uploads.js';

export interface DeleteSessionDeps {
  sessions: SessionRepo;
  jobs: IngestJobRepo;
  uploads: UploadRepo;
  eraser: SessionEraser;
  indexes: VectorIndex[];
  blobs: BlobStore;
  clock: Clock;
  queue: JobQueue;
  /** Held-back space released when the disk is full, so that the deletion can still be written (default: none). */
  space?: StorageSpace;
}

/**
 * Removes a session and everything that hangs off it: messages, ingest jobs, indexed chunks, stored files.
 * The external stores (indexes, files) are emptied first, each step idempotent; then the records go in one
 * transaction. If any step fails the session is still there (whole), so the caller can simply try again. Its ingest
 * jobs are cancelled first (a running extraction stops; a cancelled run drops its chunks), so nothing is indexed for
 * the session while it is being deleted. Once the rows are gone, the indexes are emptied once more for chunks an
 * ingestion finished writing meanwhile; an ingestion still running after that notices its job is gone and drops its
 * chunks. On a full disk (the database cannot write the deletion) it runs again with the files removed first, as the
 * space they free is what the database needs, and with the space held back for deletions released as needed.
 */
export class DeleteSession {
  constructor(private readonly deps: DeleteSessionDeps) {}

  async execute(input: { userId: string; sessionId: string }): Promise<void> {
    const session = await loadOwnedSession(this.deps.sessions, input.sessionId, input.userId);
    await withReleasedReserve(this.deps.space ?? UNWATCHED_SPACE, (diskFull) => this.erase(session, diskFull));
  }

  private async erase(session: Session, filesFirst: boolean): Promise<void> {
    const { jobs, eraser, indexes, queue } = this.deps;
    const sessionJobs = await jobs.listBySession(session.id);
    // Should a step below fail, a cancelled job left unfinished is run again once its lease expires (ResumeIngestion).
    for (const job of sessionJobs) queue.cancel(job.id);
    const keys = new Set(sessionJobs.map((j) => j.key));
    const uploads = filesFirst ? await this.removeFiles(keys, session) : undefined;
    for (const index of indexes) await index.deleteBySession(session.id);
    await eraser.erase(session.id, uploads ?? (await this.removeFiles(keys, session)));
    for (const index of indexes) await index.deleteBySession(session.id);
  }

  /** Removes the files only this session holds; says what becomes of their upload records. */
  private async removeFiles(keys: Set<string>, session: Session): Promise<ErasedUploads> {
    const uploads = { remove: [] as string[], release: [] as string[] };
    for (const key of keys) {
      if (!(await this.onlyThisSessionHolds(key, session))) continue;
      await this.deps.blobs.remove(key);
      if (await this.urlMayStillWork(key)) uploads.release.push(key);
      else uploads.remove.push(key);
    }
    return uploads;
  }

  /**
   * Whether the key's upload URL may still put a file back (an S3 URL works until it expires): then its record is
   * kept as pending, so the sweep removes whatever arrives, instead of leaving it to nobody.
   */
  private async urlMayStillWork(key: string): Promise<boolean> {
    const upload = await this.deps.uploads.findByKey(key);
    return upload !== null && Date.parse(upload.expiresAt) + SWEEP_GRACE_MS > this.deps.clock.now().getTime();
  }

  /**
   * A file goes with the session only when it was issued to the session's owner (or to nobody on record) and no
   * other session, the owner's or anyone's, has ingested it.
   */
  private async onlyThisSessionHolds(key: string, session: Session): Promise<boolean> {
    const upload = await this.deps.uploads.findByKey(key);
    if (upload && upload.userId !== session.userId) return false;
    return (await this.deps.jobs.listByKey(key)).every((job) => job.sessionId === session.id);
  }
}
