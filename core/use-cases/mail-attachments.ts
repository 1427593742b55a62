import { MAX_FILE_SIZE, type IngestJob } from '../domain/model.js';
import { baseContentType, CONTRACT_TYPES, type AcceptedTypes } from '../domain/content-types.js';
import { safeFileName, SIZE_ERROR, userKeyPrefix } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock-and-ids.js';
import type { DocumentAttachment } from '../ports/document-reader.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { UploadLimits, UploadRepo } from '../ports/upload-repo.js';
import { DEFAULT_UPLOAD_LIMITS } from './create-upload-url.js';
import { derivedJobId } from './derived-id.js';

export interface AttachmentSettings {
  /**
   * Attachments of one mail made documents of their own (MAX_MAIL_ATTACHMENTS); later ones are only named in the
   * mail. Each is a stored file and a job in the user's queue: a mail of 500 attachments must not hold it for hours.
   */
  maxPerMail: number;
  /** Mails attached to mails followed this deep: 1 takes a mail's attachments, not those of a mail among them. */
  maxDepth: number;
}

export const DEFAULT_ATTACHMENT_SETTINGS: AttachmentSettings = { maxPerMail: 20, maxDepth: 3 };

export interface MailAttachmentsDeps {
  jobs: IngestJobRepo;
  blobs: BlobStore;
  uploads: UploadRepo;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  /** The types taken, as for uploads: an attachment of another type is named in the mail and not ingested. */
  accepted?: AcceptedTypes;
  /** The owner's storage quota counts attachments as it counts uploads. */
  limits?: UploadLimits;
  settings?: Partial<AttachmentSettings>;
}

/**
 * Makes each attachment a mail's reader reported a document of its own in the mail's session: stored as a file under
 * the owner's keys (counted against the quota, as an upload is), recorded as an ingest job (its name, the mail's tags,
 * `attachedTo` the mail's job) and queued, so it goes the way uploads go (type checked against its content, same
 * content reused, OCR). Ids and keys derive from the mail's job and the attachment's place: a run of the mail's job
 * resumed or retried finds the jobs an earlier run made and makes none twice. One the deployment does not take is
 * only logged (the mail names it); one too large or past the quota gets a failed job saying so.
 */
export class MailAttachments {
  private readonly settings: AttachmentSettings;

  constructor(private readonly deps: MailAttachmentsDeps) {
    this.settings = { ...DEFAULT_ATTACHMENT_SETTINGS, ...deps.settings };
  }

  async file(mail: IngestJob, attachments: DocumentAttachment[], signal: AbortSignal): Promise<void> {
    if (attachments.length === 0) return;
    const depth = await this.depthOf(mail);
    if (depth >= this.settings.maxDepth) {
      this.deps.logger.info('attachments of a nested mail not ingested: too deep', { jobId: mail.id, depth, attachments: attachments.length });
      return;
    }
    const { maxPerMail } = this.settings;
    if (attachments.length > maxPerMail) {
      this.deps.logger.warn('attachments past the limit not ingested', { jobId: mail.id, attachments: attachments.length, limit: maxPerMail });
    }
    for (const [place, attachment] of attachments.slice(0, maxPerMail).entries()) {
      signal.throwIfAborted(); // the mail's job cancelled (its session deleted): nothing more is made for it
      await this.fileOne(mail, attachment, place);
    }
  }

  private async fileOne(mail: IngestJob, attachment: DocumentAttachment, place: number): Promise<void> {
    const { jobs, uploads, blobs, logger } = this.deps;
    const id = attachmentJobId(mail.id, place);
    const made = await jobs.findById(id);
    if (made) {
      // An earlier run of the mail's job made it, and may have died before queueing it (the queue takes a job once).
      if (made.status === 'queued') this.deps.queue.enqueue({ id, userId: mail.userId });
      return;
    }
    const accepted = this.deps.accepted ?? CONTRACT_TYPES;
    const declared = baseContentType(attachment.contentType);
    const contentType = accepted.accepts(declared) ? declared : accepted.fromName(attachment.filename);
    if (!contentType) {
      logger.info('attachment of a type not accepted: named in the mail, not ingested', { jobId: mail.id, type: declared });
      return;
    }
    const filename = attachment.filename.trim() || `attachment ${place + 1}`;
    const now = this.deps.clock.now().toISOString();
    const key = `${userKeyPrefix(mail.userId)}/${id}-${safeFileName(filename)}`;
    const job: IngestJob = {
      id, userId: mail.userId, sessionId: mail.sessionId, key, filename, contentType, tags: { ...mail.tags }, attachedTo: mail.id,
      status: 'queued', progress: 0, createdAt: now, updatedAt: now,
    };
    const size = attachment.bytes.byteLength;
    if (size > MAX_FILE_SIZE) return this.create({ ...job, status: 'failed', error: SIZE_ERROR });
    if (size === 0) return this.create({ ...job, status: 'failed', error: 'The attachment is empty' });
    // A record left by a run that died after reserving it is taken as it is (its size was counted then).
    if (!(await uploads.findByKey(key))) {
      const quota = (this.deps.limits ?? DEFAULT_UPLOAD_LIMITS).storageQuotaBytes;
      const record = { key, userId: mail.userId, contentType, declaredSize: size, issuedAt: now, expiresAt: now };
      // No upload URL is issued, so the pending-uploads limit is not this one's to meet.
      const outcome = await uploads.reserve(record, { maxPendingUploads: Number.MAX_SAFE_INTEGER, storageQuotaBytes: quota });
      if (!outcome.ok) return this.create({ ...job, status: 'failed', error: quotaReason(outcome, quota) });
    }
    const stored = await blobs.write(key, attachment.bytes, contentType);
    await uploads.markIngested(key, now, stored.etag);
    await this.create(job);
    if (!(await jobs.findById(mail.id))) return this.undo(mail, job);
    this.deps.queue.enqueue({ id, userId: mail.userId });
  }

  /**
   * The mail went (its session deleted) while this attachment was made: the deletion may have listed the session's
   * jobs before this one existed, so what was made here goes now, every job the session still has with it.
   */
  private async undo(mail: IngestJob, job: IngestJob): Promise<void> {
    this.deps.logger.info('mail deleted while its attachments were made: removed again', { jobId: mail.id, attachment: job.id });
    this.deps.queue.cancel(job.id);
    await this.deps.blobs.remove(job.key);
    await this.deps.jobs.deleteBySession(mail.sessionId);
  }

  /** Refused when a run of the same mail made it meanwhile (same id): that one stands. */
  private async create(job: IngestJob): Promise<void> {
    try {
      await this.deps.jobs.create(job);
    } catch (error) {
      if (!(await this.deps.jobs.findById(job.id))) throw error;
    }
  }

  /** How many mails up the chain of attachments this one is (0: uploaded itself), counted no further than needed. */
  private async depthOf(mail: IngestJob): Promise<number> {
    let depth = 0;
    for (let at = mail.attachedTo; at !== undefined && depth < this.settings.maxDepth; depth++) at = (await this.deps.jobs.findById(at))?.attachedTo;
    return depth;
  }
}

function quotaReason(outcome: { reason: string; storedBytes?: number }, quota: number): string {
  const stored = outcome.storedBytes === undefined ? '' : `: your files take ${outcome.storedBytes} bytes`;
  return `Storage quota exceeded${stored} and this attachment would pass the limit of ${quota} bytes; delete sessions you no longer need`;
}

/** One id per mail job and attachment place. */
export function attachmentJobId(mailJobId: string, place: number): string {
  return derivedJobId(`${mailJobId}\nattachment ${place}`);
}
