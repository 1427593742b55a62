import { NotFoundError } from '../domain/errors.js';
import type { IngestJob, Session } from '../domain/model.js';
import type { ErasedUploads } from '../ports/session-eraser.js';
import type { DeleteSessionDeps } from './delete-session.js';
import { UNWATCHED_SPACE, withReleasedReserve } from './space-reserve.js';
import { SWEEP_GRACE_MS } from './sweep-uploads.js';

export const DOCUMENT_NOT_FOUND = 'Document not found';

/** The stores a session's deletion empties: removing one document touches the same ones. */
export type DeleteDocumentDeps = DeleteSessionDeps;

/**
 * Removes one document of a session: its ingest job, its chunks in every index, and its stored file when no other
 * session (and no other document of this one) holds that file. Done in the order DeleteSession uses, for the same
 * reasons: the job is cancelled first (a running extraction stops and drops what it wrote), the indexes are emptied,
 * then the records go in one transaction, and the indexes are emptied once more for chunks a run finished writing
 * meanwhile. Any step that fails leaves the record, so the call can be repeated. On a full disk it runs again as
 * DeleteSession does: files first, with the space held back for deletions.
 *
 * The jobs of this session that reuse the document's chunks (same content ingested again, `reusedFrom`) go with it:
 * without those chunks they would list a document that answers nothing. Other sessions hold their own chunks and
 * records and are untouched.
 */
export class DeleteDocument {
  constructor(private readonly deps: DeleteDocumentDeps) {}

  async execute(input: { userId: string; sessionId: string; ingestId: string }): Promise<void> {
    const { sessions, jobs } = this.deps;
    const session = await sessions.findById(input.sessionId);
    const job = await jobs.findById(input.ingestId);
    // Unknown, another session's or another user's: all the same 404.
    if (!session || session.userId !== input.userId || !job || job.sessionId !== session.id) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    await withReleasedReserve(this.deps.space ?? UNWATCHED_SPACE, (diskFull) => this.erase(session, job, diskFull));
  }

  private async erase(session: Session, job: IngestJob, filesFirst: boolean): Promise<void> {
    const { jobs, eraser, indexes, queue } = this.deps;
    const doomed = [job, ...(await jobs.listBySession(session.id)).filter((j) => j.reusedFrom === job.id)];
    const ids = doomed.map((j) => j.id);
    for (const id of ids) queue.cancel(id);
    const keys = new Set(doomed.map((j) => j.key));
    const uploads = filesFirst ? await this.removeFiles(keys, new Set(ids), session.userId) : undefined;
    for (const index of indexes) for (const id of ids) await index.deleteByJob(id);
    await eraser.eraseDocuments(session.id, ids, uploads ?? (await this.removeFiles(keys, new Set(ids), session.userId)));
    for (const index of indexes) for (const id of ids) await index.deleteByJob(id);
  }

  /** Removes the files no job but these holds; says what becomes of their upload records. */
  private async removeFiles(keys: Set<string>, ids: Set<string>, ownerId: string): Promise<ErasedUploads> {
    const uploads = { remove: [] as string[], release: [] as string[] };
    for (const key of keys) {
      if (!(await this.onlyTheseHold(key, ids, ownerId))) continue;
      await this.deps.blobs.remove(key);
      if (await this.urlMayStillWork(key)) uploads.release.push(key);
      else uploads.remove.push(key);
    }
    return uploads;
  }

  /** The file goes only when it was issued to the owner (or to nobody on record) and no job but these ingested it. */
  private async onlyTheseHold(key: string, ids: Set<string>, ownerId: string): Promise<boolean> {
    const upload = await this.deps.uploads.findByKey(key);
    if (upload && upload.userId !== ownerId) return false;
    return (await this.deps.jobs.listByKey(key)).every((j: IngestJob) => ids.has(j.id));
  }

  /** As in DeleteSession: a record whose S3 URL may still put the file back is kept as pending for the sweep. */
  private async urlMayStillWork(key: string): Promise<boolean> {
    const upload = await this.deps.uploads.findByKey(key);
    return upload !== null && Date.parse(upload.expiresAt) + SWEEP_GRACE_MS > this.deps.clock.now().getTime();
  }
}
