import { ValidationError } from '../../core/domain/errors.js';
import type { UploadUrlRequest } from '../../core/ports/blob-store.js';

/** 50 MiB, the service-wide upload limit. */
export const DEFAULT_MAX_UPLOAD_BYTES = 52_428_800;
/** Longest lifetime of an upload URL (S3's limit for presigned URLs). */
export const MAX_EXPIRES_IN_SECONDS = 7 * 24 * 3600;

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/** What every BlobStore checks before signing an upload URL; throws ValidationError naming the bad field. */
export function checkUploadUrlRequest(request: UploadUrlRequest, maxBytes: number): void {
  if (typeof request.key !== 'string' || request.key.length === 0) throw new ValidationError('Invalid key: empty');
  const type = request.contentType;
  if (typeof type !== 'string' || !MEDIA_TYPE.test(type)) throw new ValidationError(`Invalid content type: ${String(type)}`);
  const size = request.contentSize;
  if (!Number.isSafeInteger(size) || size < 0) throw new ValidationError('contentSize must be a non-negative integer');
  if (size > maxBytes) throw new ValidationError(`Declared size ${size} exceeds the limit of ${maxBytes} bytes`);
  const expiresIn = request.expiresInSeconds;
  if (!Number.isSafeInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRES_IN_SECONDS) {
    throw new ValidationError(`expiresInSeconds must be an integer between 1 and ${MAX_EXPIRES_IN_SECONDS}`);
  }
}

/** A positive whole byte limit, or the adapter's constructor fails naming it. */
export function checkMaxBytes(adapter: string, maxBytes: number | undefined): number {
  const value = maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${adapter}: maxBytes must be a positive integer`);
  return value;
}
