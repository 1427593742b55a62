import type { IngestJob } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';

/** A session's documents: its ingest jobs, whatever their status, newest first (what a document list shows on top). */
export class ListDocuments {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly jobs: IngestJobRepo,
  ) {}

  async execute(input: { userId: string; sessionId: string }): Promise<IngestJob[]> {
    await loadOwnedSession(this.sessions, input.sessionId, input.userId);
    const jobs = await this.jobs.listBySession(input.sessionId);
    // The repository lists oldest first; a stable reverse keeps ties in reverse insertion order.
    return jobs.reverse();
  }
}
