import type { IngestJob, IngestStatus } from '../domain/model.js';

export type IngestJobPatch = Partial<
  Pick<
    IngestJob,
    | 'status' | 'stage' | 'progress' | 'error' | 'pages' | 'chunks' | 'ocrSkippedPages' | 'sha256' | 'reusedFrom' | 'attempts'
    | 'checkpoint' | 'readingPage' | 'diedOnPage' | 'kind' | 'units' | 'updatedAt'
  >
>;

export interface IngestJobRepo {
  /**
   * Stores a new job. At most one job per user and key is queued or processing at a time, also under concurrent
   * calls: creating a second one rejects with IngestAlreadyActiveError carrying the id of the one there.
   */
  create(job: IngestJob): Promise<void>;
  findById(id: string): Promise<IngestJob | null>;
  /** Returns the updated job, or null when it no longer exists (its session was deleted meanwhile). */
  update(id: string, patch: IngestJobPatch): Promise<IngestJob | null>;
  /** Jobs left queued or processing, oldest first: resumed at start. */
  listUnfinished(): Promise<IngestJob[]>;
  listBySession(sessionId: string): Promise<IngestJob[]>;
  /** Every job (of any session) that ingested this upload key, oldest first. */
  listByKey(key: string): Promise<IngestJob[]>;
  /** A completed job of this session with the same content hash, if any. */
  findCompletedBySha256(sessionId: string, sha256: string): Promise<IngestJob | null>;
  /**
   * The user's completed jobs that have a content hash (of every session), newest first, at most `limit`; with
   * `sha256`, only those of that content. What the user's document library is made of.
   */
  listCompletedByUser(userId: string, options: { sha256?: string; limit: number }): Promise<IngestJob[]>;
  /** The user's job for this key that is queued or processing, if any. */
  findActiveByKey(userId: string, key: string): Promise<IngestJob | null>;
  deleteBySession(sessionId: string): Promise<number>;
  /** How many jobs (of every session) are in each status, in one query; a status without jobs may be left out. */
  countByStatus(): Promise<Partial<Record<IngestStatus, number>>>;
}
