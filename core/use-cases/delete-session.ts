import { loadOwnedSession } from '../domain/ownership.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';

export interface DeleteSessionDeps {
  sessions: SessionRepo;
  chats: ChatRepo;
  jobs: IngestJobRepo;
  indexes: VectorIndex[];
  blobs: BlobStore;
}

/**
 * Removes a session and everything that hangs off it: messages, ingest jobs, indexed chunks, stored files.
 * The session row goes first so the session is gone for the user even if a later step fails; the remaining steps
 * are idempotent, and an ingestion still running for the session notices its job is gone and drops its chunks.
 */
export class DeleteSession {
  constructor(private readonly deps: DeleteSessionDeps) {}

  async execute(input: { userId: string; sessionId: string }): Promise<void> {
    const { sessions, chats, jobs, indexes, blobs } = this.deps;
    await loadOwnedSession(sessions, input.sessionId, input.userId);
    const sessionJobs = await jobs.listBySession(input.sessionId);
    await sessions.delete(input.sessionId);
    await chats.deleteBySession(input.sessionId);
    await jobs.deleteBySession(input.sessionId);
    for (const index of indexes) await index.deleteBySession(input.sessionId);
    // A file may back jobs of other sessions (same key ingested twice): keys are per upload, so remove all of ours.
    for (const key of new Set(sessionJobs.map((j) => j.key))) await blobs.remove(key);
  }
}
