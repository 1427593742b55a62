import type { IngestJob, Session } from '../domain/model.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';

/** Most documents listed; past it the library says it is `truncated`. */
export const LIBRARY_DOCUMENT_LIMIT = 2000;
/** Most jobs read to make the list (a document held by many sessions is one document of many jobs). */
const LIBRARY_JOB_LIMIT = 10_000;

export interface LibraryHolder {
  sessionId: string;
  sessionLabel: string;
  /** The session's job for this document (what DELETE …/documents/:ingestId removes from that session alone). */
  ingestId: string;
  addedAt: string;
}

/** One content, however many sessions hold it: documents are told apart by their bytes' sha256. */
export interface LibraryDocument {
  /** The content's sha256 (hex): the id POST /session/:id/documents adds. */
  id: string;
  /** As the user first named it. */
  filename: string;
  contentType: string;
  pages?: number;
  chunks?: number;
  /** The sessions holding it, in the order it came to them. */
  sessions: LibraryHolder[];
}

export interface DocumentLibrary {
  /** Most recently added first. */
  documents: LibraryDocument[];
  /** Whether documents were left out (more than LIBRARY_DOCUMENT_LIMIT, or more jobs than are read). */
  truncated: boolean;
}

/** The user's documents across sessions (completed ingests), deduplicated by content. */
export class ListLibrary {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly jobs: IngestJobRepo,
  ) {}

  async execute(input: { userId: string }): Promise<DocumentLibrary> {
    const [sessions, jobs] = await Promise.all([
      this.sessions.listByUser(input.userId),
      this.jobs.listCompletedByUser(input.userId, { limit: LIBRARY_JOB_LIMIT }),
    ]);
    const labels = new Map(sessions.map((s: Session) => [s.id, s.label]));
    const byContent = new Map<string, LibraryDocument>();
    // Newest job first: the first job met of a content is its latest addition.
    for (const job of jobs) {
      const label = labels.get(job.sessionId);
      if (label === undefined || job.sha256 === undefined) continue; // its session is being deleted
      let document = byContent.get(job.sha256);
      if (!document) byContent.set(job.sha256, (document = { id: job.sha256, ...named(job), sessions: [] }));
      // A session that ingested the same content twice holds it once: by its first job, which owns the chunks (the
      // later one reuses them), and is what removing the document from that session removes.
      const holder = document.sessions.find((h) => h.sessionId === job.sessionId);
      if (holder) Object.assign(holder, { ingestId: job.id, addedAt: job.createdAt });
      else document.sessions.unshift({ sessionId: job.sessionId, sessionLabel: label, ingestId: job.id, addedAt: job.createdAt });
      // The oldest job names the document, as the user first named it.
      Object.assign(document, named(job));
    }
    const documents = [...byContent.values()];
    return {
      documents: documents.slice(0, LIBRARY_DOCUMENT_LIMIT),
      truncated: documents.length > LIBRARY_DOCUMENT_LIMIT || jobs.length >= LIBRARY_JOB_LIMIT,
    };
  }
}

function named(job: IngestJob): Omit<LibraryDocument, 'id' | 'sessions'> {
  return {
    filename: job.filename,
    contentType: job.contentType,
    ...(job.pages !== undefined && { pages: job.pages }),
    ...(job.chunks !== undefined && { chunks: job.chunks }),
  };
}
