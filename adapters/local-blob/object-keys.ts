import path from 'node:path';
import { ValidationError } from '../../core/domain/errors.js';

/** S3 allows keys of up to 1024 UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;
/** File names are limited to 255 bytes; the sidecar adds `.json`. */
const MAX_SEGMENT_BYTES = 250;

/** Where a key's bytes and its sidecar live under the store's root. */
export class ObjectPaths {
  constructor(
    readonly objectsDir: string,
    readonly metaDir: string,
  ) {}

  /** The absolute path of a key's bytes; throws ValidationError for any key that could leave `objects/`. */
  objectPath(key: string): string {
    if (typeof key !== 'string' || key.length === 0) throw new ValidationError('Invalid key: empty');
    if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new ValidationError('Invalid key: too long');
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f\\]/.test(key)) throw new ValidationError('Invalid key: control character or backslash');
    if (key.startsWith('/')) throw new ValidationError('Invalid key: absolute path');
    for (const segment of key.split('/')) {
      if (segment === '' || segment === '.' || segment === '..') {
        throw new ValidationError('Invalid key: empty, "." or ".." path segment');
      }
      if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) throw new ValidationError('Invalid key: path segment too long');
    }
    const resolved = path.resolve(this.objectsDir, key);
    if (!resolved.startsWith(this.objectsDir + path.sep)) throw new ValidationError('Invalid key: outside the store');
    return resolved;
  }

  /** The sidecar of an object path. */
  metaPath(objectPath: string): string {
    return path.join(this.metaDir, `${path.relative(this.objectsDir, objectPath)}.json`);
  }

  /** The object path a sidecar belongs to. */
  objectPathOfMeta(metaPath: string): string {
    return path.join(this.objectsDir, path.relative(this.metaDir, metaPath).replace(/\.json$/, ''));
  }
}

/** Percent-encodes each path segment; `/` stays a separator. */
export function encodeKeyForPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
