import { loadOwnedSession } from '../domain/ownership.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';

export interface DeleteSessionDeps {
  sessions: SessionRepo;
  chats: ChatRepo;
  jobs: IngestJobRepo;
  indexes: VectorIndex[];
  blobs: BlobStore;
  queue: JobQueue;
}

/**
 * Removes a session and everything that hangs off it: messages, ingest jobs, indexed chunks, stored files.
 * The external stores (indexes, files) are emptied first, each step idempotent: if one of them is unavailable the
 * call fails (503) with the session still there, so the caller can simply try again. Once the rows are gone, the
 * indexes are emptied once more for chunks an ingestion finished writing meanwhile; an ingestion still running
 * after that notices its job is gone and drops its chunks. Its ingest jobs are cancelled first (a running extraction
 * stops; a cancelled run drops its chunks), so nothing is indexed for the session while it is being deleted.
 */
export class DeleteSession {
  constructor(private readonly deps: DeleteSessionDeps) {}

  async execute(input: { userId: string; sessionId: string }): Promise<void> {
    const { sessions, chats, jobs, indexes, blobs, queue } = this.deps;
    await loadOwnedSession(sessions, input.sessionId, input.userId);
    const sessionJobs = await jobs.listBySession(input.sessionId);
    // Should a step below fail, a cancelled job left unfinished is run again once its lease expires (ResumeIngestion).
    for (const job of sessionJobs) queue.cancel(job.id);
    for (const index of indexes) await index.deleteBySession(input.sessionId);
    // An upload ingested into two of the user's sessions goes with the first deleted: the other's chunks are already
    // indexed and no longer need the file.
    for (const key of new Set(sessionJobs.map((j) => j.key))) await blobs.remove(key);
    await sessions.delete(input.sessionId);
    await chats.deleteBySession(input.sessionId);
    await jobs.deleteBySession(input.sessionId);
    for (const index of indexes) await index.deleteBySession(input.sessionId);
  }
}
