import { ValidationError } from '../domain/errors.js';
import { MAX_FILE_SIZE, UPLOAD_URL_TTL_SECONDS } from '../domain/model.js';
import { isAllowedContentType, safeFileName, SIZE_ERROR, TYPE_ERROR, userKeyPrefix } from '../domain/uploads.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { IdGenerator } from '../ports/clock-and-ids.js';

export { SIZE_ERROR, TYPE_ERROR };

export interface UploadData {
  signedUrl: string;
  key: string;
  expiresAt: string;
}

export class CreateUploadUrl {
  constructor(
    private readonly blobs: BlobStore,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { userId: string; filename: string; contentType: string; contentSize: number }): Promise<UploadData> {
    // The spec checks size before type.
    if (input.contentSize > MAX_FILE_SIZE) throw new ValidationError(SIZE_ERROR);
    if (!Number.isInteger(input.contentSize) || input.contentSize <= 0) {
      throw new ValidationError('contentSize must be a positive whole number of bytes');
    }
    if (!isAllowedContentType(input.contentType)) throw new ValidationError(TYPE_ERROR);
    if (input.filename.trim().length === 0) throw new ValidationError('filename must not be empty');
    const key = `${userKeyPrefix(input.userId)}/${this.ids.newId()}-${safeFileName(input.filename)}`;
    const url = await this.blobs.createUploadUrl({
      key,
      contentType: input.contentType,
      contentSize: input.contentSize,
      expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    });
    return { signedUrl: url.url, key, expiresAt: url.expiresAt };
  }
}
