import { LimitReachedError, QuotaExceededError, ValidationError } from '../domain/errors.js';
import { MAX_FILE_SIZE, UPLOAD_URL_TTL_SECONDS } from '../domain/model.js';
import { CONTRACT_TYPES, type AcceptedTypes } from '../domain/content-types.js';
import { safeFileName, SIZE_ERROR, TYPE_ERROR, userKeyPrefix } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { UploadLimits, UploadRepo } from '../ports/upload-repo.js';
import { UNWATCHED_SPACE } from './space-reserve.js';

export { SIZE_ERROR, TYPE_ERROR };

/** 1 GiB of files and 20 upload URLs awaiting ingestion per user. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxPendingUploads: 20, storageQuotaBytes: 1_073_741_824 };

export interface UploadData {
  signedUrl: string;
  key: string;
  expiresAt: string;
}

export interface CreateUploadUrlDeps {
  blobs: BlobStore;
  uploads: UploadRepo;
  ids: IdGenerator;
  clock: Clock;
  limits?: UploadLimits;
  /** Below its free-space reserve no upload URL is issued (default: not watched). */
  space?: StorageSpace;
  /** The file types taken (default: the contract's three); a refusal lists exactly these. */
  accepted?: AcceptedTypes;
}

/**
 * Issues an upload URL for a fresh key and records to whom it was issued (within the user's limits and the server's
 * free space).
 */
export class CreateUploadUrl {
  private readonly limits: UploadLimits;

  constructor(private readonly deps: CreateUploadUrlDeps) {
    this.limits = deps.limits ?? DEFAULT_UPLOAD_LIMITS;
  }

  async execute(input: { userId: string; filename: string; contentType: string; contentSize: number }): Promise<UploadData> {
    // The spec checks size before type.
    if (input.contentSize > MAX_FILE_SIZE) throw new ValidationError(SIZE_ERROR);
    if (!Number.isInteger(input.contentSize) || input.contentSize <= 0) {
      throw new ValidationError('contentSize must be a positive whole number of bytes');
    }
    const accepted = this.deps.accepted ?? CONTRACT_TYPES;
    if (!accepted.accepts(input.contentType)) throw new ValidationError(accepted.typeError);
    if (input.filename.trim().length === 0) throw new ValidationError('filename must not be empty');
    await (this.deps.space ?? UNWATCHED_SPACE).ensureRoom();
    const key = `${userKeyPrefix(input.userId)}/${this.deps.ids.newId()}-${safeFileName(input.filename)}`;
    const issuedAt = this.deps.clock.now().toISOString();
    const url = await this.deps.blobs.createUploadUrl({
      key,
      contentType: input.contentType,
      contentSize: input.contentSize,
      expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    });
    // Signing is offline and stores nothing: a URL refused here is simply never handed out.
    const outcome = await this.deps.uploads.reserve(
      { key, userId: input.userId, contentType: input.contentType, declaredSize: input.contentSize, issuedAt, expiresAt: url.expiresAt },
      this.limits,
    );
    if (!outcome.ok && outcome.reason === 'storage-quota') {
      throw new QuotaExceededError(
        `Storage quota exceeded: your files take ${outcome.storedBytes} bytes and this one would pass the limit of ` +
          `${this.limits.storageQuotaBytes} bytes; delete sessions you no longer need`,
      );
    }
    if (!outcome.ok) {
      throw new LimitReachedError(
        `Too many pending uploads: ${outcome.pending} upload URLs are waiting to be ingested (at most ` +
          `${this.limits.maxPendingUploads}); ingest those files or wait for their URLs to expire`,
      );
    }
    return { signedUrl: url.url, key, expiresAt: url.expiresAt };
  }
}
