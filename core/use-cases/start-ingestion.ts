import { ForbiddenError, ValidationError } from '../domain/errors.js';
import { MAX_FILE_SIZE, type IngestJob } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import { MAX_TAG_NAME as MAX_TAG_KEY, MAX_TAG_VALUE } from '../domain/tags.js';
import { contentTypeFromName, isAllowedContentType, keyBelongsTo, SIZE_ERROR } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { SessionRepo } from '../ports/session-repo.js';

export interface StartIngestionDeps {
  sessions: SessionRepo;
  jobs: IngestJobRepo;
  blobs: BlobStore;
  queue: JobQueue;
  ids: IdGenerator;
  clock: Clock;
}

const MAX_TAGS = 50;

/** Records an ingest job for an uploaded file and hands it to the background queue; returns at once. */
export class StartIngestion {
  constructor(private readonly deps: StartIngestionDeps) {}

  async execute(input: {
    userId: string;
    sessionId: string;
    key: string;
    filename: string;
    tags: Record<string, string | number | boolean>;
  }): Promise<IngestJob> {
    const { sessions, jobs, blobs, queue, ids, clock } = this.deps;
    const tags = normalizeTags(input.tags);
    if (input.filename.trim().length === 0) throw new ValidationError('filename must not be empty');
    await loadOwnedSession(sessions, input.sessionId, input.userId);
    if (!keyBelongsTo(input.key, input.userId)) {
      throw new ForbiddenError('key was not issued to you: use the key returned by /api/v1/ingest/upload/url');
    }
    const info = await blobs.stat(input.key);
    if (!info) throw new ValidationError('No file has been uploaded under this key: PUT the file to the signed URL first');
    // Object stores do not all enforce the signed size (MinIO's presigned PUT does not): check it here.
    if (info.size > MAX_FILE_SIZE) throw new ValidationError(SIZE_ERROR);
    if (info.size === 0) throw new ValidationError('The uploaded file is empty');
    const declared = info.contentType && isAllowedContentType(info.contentType) ? info.contentType : null;
    const now = clock.now().toISOString();
    const job: IngestJob = {
      id: ids.newId(),
      userId: input.userId,
      sessionId: input.sessionId,
      key: input.key,
      filename: input.filename.trim(),
      // The type the file was signed for; else the name's; else the content decides when it is read.
      contentType: declared ?? contentTypeFromName(input.filename) ?? contentTypeFromName(input.key) ?? 'application/octet-stream',
      tags,
      status: 'queued',
      progress: 0,
      createdAt: now,
      updatedAt: now,
    };
    await jobs.create(job);
    queue.enqueue(job.id);
    return job;
  }
}

function normalizeTags(tags: Record<string, string | number | boolean>): Record<string, string> {
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS) throw new ValidationError(`tags may hold at most ${MAX_TAGS} entries`);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > MAX_TAG_KEY) throw new ValidationError(`tag names must be 1..${MAX_TAG_KEY} characters`);
    const text = String(value);
    if (text.length > MAX_TAG_VALUE) throw new ValidationError(`tag "${key}" is longer than ${MAX_TAG_VALUE} characters`);
    out[key] = text;
  }
  return out;
}
