import { ConflictError, ForbiddenError, IngestAlreadyActiveError, ValidationError } from '../domain/errors.js';
import { MAX_FILE_SIZE, type IngestJob } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import { MAX_TAG_NAME as MAX_TAG_KEY, MAX_TAG_VALUE } from '../domain/tags.js';
import { CONTRACT_TYPES, type AcceptedTypes } from '../domain/content-types.js';
import { SIZE_ERROR, UPLOAD_CHANGED, UPLOAD_NOT_ISSUED } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { UploadRepo } from '../ports/upload-repo.js';
import { UNWATCHED_SPACE } from './space-reserve.js';

export interface StartIngestionDeps {
  sessions: SessionRepo;
  jobs: IngestJobRepo;
  blobs: BlobStore;
  uploads: UploadRepo;
  queue: JobQueue;
  ids: IdGenerator;
  clock: Clock;
  /** Below its free-space reserve no ingestion starts (default: not watched). */
  space?: StorageSpace;
  /** The kinds of document a `document_kind` tag (KIND_TAG) may name (DocumentClassifier.kinds); none given: any value is taken. */
  kinds?: readonly string[];
  /** The file types taken (default: the contract's three): a stored type or name outside them is left to the content. */
  accepted?: AcceptedTypes;
}

const MAX_TAGS = 50;

/**
 * The tag that gives a document's kind instead of the classifier (IngestJob.kind). Not `kind`: tags are the caller's
 * arbitrary metadata (the spec), and a `kind` tag of other values ("pdfs") must stay valid.
 */
export const KIND_TAG = 'document_kind';

/**
 * Records an ingest job for an uploaded file and hands it to the background queue; returns at once. A key whose job
 * is still queued or processing is not started again (IngestAlreadyActiveError, with that job's id); a finished one
 * is (its content is then reused by hash when it completed). Below the server's free-space reserve nothing starts
 * (InsufficientStorageError).
 */
export class StartIngestion {
  constructor(private readonly deps: StartIngestionDeps) {}

  async execute(input: {
    userId: string;
    sessionId: string;
    key: string;
    filename: string;
    tags: Record<string, string | number | boolean>;
  }): Promise<IngestJob> {
    const { sessions, jobs, blobs, uploads, queue, ids, clock } = this.deps;
    const tags = normalizeTags(input.tags);
    // The KIND_TAG tag says what the document is, instead of the classifier: only a kind the plug-ins know.
    const kinds = this.deps.kinds;
    const kind = tags[KIND_TAG];
    if (kind !== undefined && kinds && !kinds.includes(kind)) throw new ValidationError(`tags.${KIND_TAG} must be one of: ${kinds.join(', ')}`);
    if (input.filename.trim().length === 0) throw new ValidationError('filename must not be empty');
    await loadOwnedSession(sessions, input.sessionId, input.userId);
    // Ownership is what was recorded when the key was issued, not what the key looks like.
    const upload = await uploads.findByKey(input.key);
    if (!upload || upload.userId !== input.userId) throw new ForbiddenError(UPLOAD_NOT_ISSUED);
    const info = await blobs.stat(input.key);
    if (!info) throw new ValidationError('No file has been uploaded under this key: PUT the file to the signed URL first');
    // Object stores do not all enforce the signed size (MinIO's presigned PUT does not): check it here.
    if (info.size > MAX_FILE_SIZE) throw new ValidationError(SIZE_ERROR);
    if (info.size === 0) throw new ValidationError('The uploaded file is empty');
    // declaredSize 0: a record carried over from before sizes were recorded.
    if (upload.declaredSize > 0 && info.size !== upload.declaredSize) {
      throw new ValidationError(
        `The uploaded file has ${info.size} bytes, not the ${upload.declaredSize} its upload URL was issued for: request a new upload URL and upload it again`,
      );
    }
    const active = await jobs.findActiveByKey(input.userId, input.key);
    if (active) throw new IngestAlreadyActiveError(active.id);
    // After every check of the request itself, before anything is written: a full disk is no fault of the request.
    await (this.deps.space ?? UNWATCHED_SPACE).ensureRoom();
    const accepted = this.deps.accepted ?? CONTRACT_TYPES;
    const declared = info.contentType && accepted.accepts(info.contentType) ? info.contentType : null;
    const now = clock.now().toISOString();
    // The first ingest fixes the object's version; compared after marking, so two racing first ingests agree too.
    const marked = await uploads.markIngested(input.key, now, info.etag);
    if (!marked) throw new ForbiddenError(UPLOAD_NOT_ISSUED);
    if (marked.etag !== undefined && info.etag !== undefined && marked.etag !== info.etag) throw new ConflictError(UPLOAD_CHANGED);
    const job: IngestJob = {
      id: ids.newId(),
      userId: input.userId,
      sessionId: input.sessionId,
      key: input.key,
      filename: input.filename.trim(),
      // The type the file was signed for; else the name's; else the content decides when it is read.
      contentType: declared ?? accepted.fromName(input.filename) ?? accepted.fromName(input.key) ?? 'application/octet-stream',
      tags,
      ...(kind !== undefined && { kind }),
      status: 'queued',
      progress: 0,
      createdAt: now,
      updatedAt: now,
    };
    await jobs.create(job); // refuses a job created for the same key meanwhile (IngestAlreadyActiveError)
    queue.enqueue({ id: job.id, userId: job.userId });
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
