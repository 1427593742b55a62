import { createHash } from 'node:crypto';
import { CONTRACT_TYPES } from './content-types.js';
import { ALLOWED_CONTENT_TYPES, type AllowedContentType } from './model.js';

const MAX_NAME_CHARS = 100;
/**
 * Keys are `<user prefix>/<uuid>-<name>`: 37 bytes before the name, and the local store refuses a path segment over
 * 250 bytes (S3 a key over 1024), so the name is also bounded in UTF-8 bytes.
 */
const MAX_NAME_BYTES = 200;

/** The spec's texts for an upload refused by size and by type. */
export const SIZE_ERROR = 'Maximum file size limit exceed';
export const TYPE_ERROR = `Invalid File Type | Valid Type Are: ${ALLOWED_CONTENT_TYPES.join(', ')}`;

/** The storage prefix a user's uploads live under. User ids that are not plain tokens are hashed into one. */
export function userKeyPrefix(userId: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(userId) ? userId : `u-${createHash('sha256').update(userId).digest('hex').slice(0, 32)}`;
}

/**
 * A filename made safe to be part of a storage key: any script kept, but no path separators, control characters,
 * dot-only names or leading dots; whitespace becomes '-'; at most 100 characters and 200 UTF-8 bytes (whole code
 * points, keeping the end of the name so the extension survives).
 */
export function safeFileName(filename: string): string {
  const cleaned = filename
    .normalize('NFC')
    .replace(/[\\/]/g, '-')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*#%&{}$!'@+`=^~\[\]]/g, '')
    .replace(/\s+/gu, '-')
    .split('-')
    // Path segments made only of dots ("..") carry nothing but traversal intent.
    .filter((segment) => !/^\.+$/.test(segment))
    .join('-')
    .replace(/^[.-]+/, '')
    .replace(/-{2,}/g, '-');
  const limited = keepEndWithinBytes([...cleaned].slice(-MAX_NAME_CHARS), MAX_NAME_BYTES).replace(/^[.-]+/, '');
  return limited.length > 0 ? limited : 'file';
}

/** The longest tail of these code points that fits in `maxBytes` of UTF-8. */
function keepEndWithinBytes(codePoints: string[], maxBytes: number): string {
  let bytes = 0;
  let start = codePoints.length;
  while (start > 0) {
    const next = bytes + Buffer.byteLength(codePoints[start - 1]!, 'utf8');
    if (next > maxBytes) break;
    bytes = next;
    start -= 1;
  }
  return codePoints.slice(start).join('');
}

/** The one text for a key that is unknown, swept, or another user's: the three cannot be told apart. */
export const UPLOAD_NOT_ISSUED =
  'key was not issued to you: use the key returned by /api/v1/ingest/upload/url (uploads not ingested within an hour of their URL expiring are removed)';
/** A file replaced after its first ingest (an S3 presigned URL used again): its new content is not taken. */
export const UPLOAD_CHANGED =
  'The file under this key changed after it was first ingested: request a new upload URL and upload it again';

export function isAllowedContentType(type: string): type is AllowedContentType {
  return (ALLOWED_CONTENT_TYPES as readonly string[]).includes(type);
}

/** The document type told by the first bytes, or null when it is neither a PDF nor a JPEG. */
export function sniffContentType(bytes: Uint8Array): 'application/pdf' | 'image/jpeg' | null {
  if (bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-') return 'application/pdf';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** The type implied by a file name's extension, when it is one of the contract's (CONTRACT_TYPES). */
export function contentTypeFromName(filename: string): AllowedContentType | null {
  return CONTRACT_TYPES.fromName(filename) as AllowedContentType | null;
}
