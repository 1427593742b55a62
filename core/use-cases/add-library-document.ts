import { NotFoundError } from '../domain/errors.js';
import type { IngestJob } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { DOCUMENT_NOT_FOUND } from './delete-document.js';
import { derivedJobId } from './derived-id.js';
import { UNWATCHED_SPACE } from './space-reserve.js';

export interface AddLibraryDocumentDeps {
  sessions: SessionRepo;
  jobs: IngestJobRepo;
  indexes: VectorIndex[];
  clock: Clock;
  /** Below its free-space reserve no copy is made (the chunks take room as an ingest's do). */
  space?: StorageSpace;
}

/** How many of the user's jobs of one content are looked at for the session's own and a source. */
const HOLDERS_READ = 1000;

/**
 * Adds a document of the user's library (named by its content's sha256) to one of their sessions without reading
 * it again: the chunks of a session that holds it are copied, in every index, as a new job of this session
 * (`copiedFrom` the job copied). The job shares the stored file with the others: removing the document from one
 * session leaves the file and every other session's copy (DeleteDocument keeps a file any other job holds).
 * Idempotent: a session that holds the content already (added, uploaded or copied) gets its job back, `created` false.
 * Another user's document or session is not found, as a missing one.
 */
export class AddLibraryDocument {
  constructor(private readonly deps: AddLibraryDocumentDeps) {}

  async execute(input: { userId: string; sessionId: string; documentId: string }): Promise<{ job: IngestJob; created: boolean }> {
    const { jobs, indexes } = this.deps;
    const session = await loadOwnedSession(this.deps.sessions, input.sessionId, input.userId);
    const holders = await jobs.listCompletedByUser(input.userId, { sha256: input.documentId, limit: HOLDERS_READ });
    if (holders.length === 0) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    const own = holders.filter((j) => j.sessionId === session.id).at(-1); // the session's first job of it
    if (own) return { job: own, created: false };
    await (this.deps.space ?? UNWATCHED_SPACE).ensureRoom();
    const source = holders[0];
    // A job that reused a twin of its session holds no chunks of its own: the twin's are copied.
    const fromJobId = source.reusedFrom ?? source.id;
    const now = this.deps.clock.now().toISOString();
    const job: IngestJob = {
      id: copyIdOf(session.id, input.documentId),
      userId: input.userId,
      sessionId: session.id,
      key: source.key,
      filename: source.filename,
      contentType: source.contentType,
      tags: { ...source.tags },
      status: 'completed',
      progress: 1,
      sha256: input.documentId,
      copiedFrom: fromJobId,
      createdAt: now,
      updatedAt: now,
      ...(source.pages !== undefined && { pages: source.pages }),
      ...(source.chunks !== undefined && { chunks: source.chunks }),
      ...(source.ocrSkippedPages !== undefined && { ocrSkippedPages: source.ocrSkippedPages }),
      ...(source.units !== undefined && { units: [...source.units] }),
    };
    // Chunks first, the record last: until the record exists no answer cites the copy (answers draw on completed
    // jobs only), and a copy cut short is removed again.
    try {
      for (const index of indexes) await index.copyJob({ fromJobId, toJobId: job.id, toSessionId: session.id });
      await jobs.create(job);
    } catch (error) {
      // The same add made at the same time won (same job id, chunks copied alike): its job is the answer, and the
      // chunks are its own.
      const winner = await jobs.findById(job.id).catch(() => null);
      if (winner) return { job: winner, created: false };
      await Promise.allSettled(indexes.map((index) => index.deleteByJob(job.id)));
      throw error;
    }
    return { job, created: true };
  }
}

/** The job a document added to a session gets: one per session and content, so two adds at the same time make one. */
function copyIdOf(sessionId: string, documentId: string): string {
  return derivedJobId(`${sessionId}\n${documentId}`);
}
