import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, ValidationError } from '../../core/domain/errors.js';
import type { BlobInfo, BlobStore, UploadUrl, UploadUrlRequest } from '../../core/ports/blob-store.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';

/** 50 MiB, the service-wide upload limit. */
export const DEFAULT_MAX_UPLOAD_BYTES = 52_428_800;
/** Longest lifetime of an upload URL (same as S3 presigned URLs). */
const MAX_EXPIRES_IN_SECONDS = 7 * 24 * 3600;
/** S3 allows keys of up to 1024 UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;
/** File names are limited to 255 bytes; the sidecar adds `.json`. */
const MAX_SEGMENT_BYTES = 250;
/** Temp files older than this are leftovers of a crash and removed by `init()`. */
const STALE_TEMP_MS = 24 * 3600 * 1000;

export interface LocalBlobStoreOptions {
  /** Root directory; `objects/`, `meta/` and `tmp/` are created under it. */
  directory: string;
  /** Origin (optionally with a path prefix) that clients reach the upload route on, e.g. `http://localhost:3000`. */
  publicUrl: string;
  /** HMAC key for upload URLs; at least 16 characters/bytes. */
  secret: string | Uint8Array;
  /** Largest accepted upload in bytes (default 52428800). */
  maxBytes?: number;
  clock?: Clock;
}

export interface AcceptUploadRequest {
  /** The key from the URL path, already percent-decoded. */
  key: string;
  /** The parsed query string of the upload URL. */
  query: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The request's Content-Type header. */
  contentType: string | undefined;
  /** The request's Content-Length header, when sent (undefined for chunked bodies). */
  contentLength: number | undefined;
  body: AsyncIterable<Uint8Array | string> | NodeJS.ReadableStream;
}

export interface AcceptUploadResult {
  /** 200 stored; 400 bad key / short or interrupted body; 403 bad signature or expired; 413 too large; 415 wrong Content-Type. */
  status: 200 | 400 | 403 | 413 | 415;
  error?: string;
}

interface Sidecar {
  contentType: string;
  size: number;
  uploadedAt: string;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * BlobStore on the local file system, for single-node installs without object storage.
 *
 * Layout under `directory`: `objects/<key>` (the bytes), `meta/<key>.json` (content type, size),
 * `tmp/` (uploads in progress; same file system, so the final rename is atomic).
 * Upload URLs point at `localUploadRouter` (PUT /uploads/<key>) and carry an HMAC signature over
 * key, expiry, content type and size; `acceptUpload` enforces all four.
 */
export class LocalBlobStore implements BlobStore {
  readonly name = 'blob storage';
  readonly maxBytes: number;
  private readonly root: string;
  private readonly objectsDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;
  private readonly publicUrl: string;
  private readonly secret: Buffer;
  private readonly clock: Clock;
  private initialised: Promise<void> | undefined;

  constructor(options: LocalBlobStoreOptions) {
    if (!options.directory) throw new Error('LocalBlobStore: directory is required');
    this.root = path.resolve(options.directory);
    this.objectsDir = path.join(this.root, 'objects');
    this.metaDir = path.join(this.root, 'meta');
    this.tmpDir = path.join(this.root, 'tmp');

    let publicUrl: URL;
    try {
      publicUrl = new URL(options.publicUrl);
    } catch {
      throw new Error(`LocalBlobStore: publicUrl is not a URL: ${options.publicUrl}`);
    }
    if (publicUrl.protocol !== 'http:' && publicUrl.protocol !== 'https:') {
      throw new Error('LocalBlobStore: publicUrl must be http(s)');
    }
    this.publicUrl = `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}`;

    this.secret = typeof options.secret === 'string' ? Buffer.from(options.secret, 'utf8') : Buffer.from(options.secret);
    if (this.secret.length < 16) throw new Error('LocalBlobStore: secret must be at least 16 bytes');

    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes <= 0) {
      throw new Error('LocalBlobStore: maxBytes must be a positive integer');
    }
    this.clock = options.clock ?? systemClock;
  }

  /** Creates the directories and removes temp files left by a crash. Idempotent; other methods call it lazily. */
  init(): Promise<void> {
    this.initialised ??= this.doInit().catch((error: unknown) => {
      this.initialised = undefined;
      throw error;
    });
    return this.initialised;
  }

  private async doInit(): Promise<void> {
    await fs.mkdir(this.objectsDir, { recursive: true });
    await fs.mkdir(this.metaDir, { recursive: true });
    await fs.mkdir(this.tmpDir, { recursive: true });
    const now = Date.now();
    for (const entry of await fs.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, entry);
      try {
        const info = await fs.stat(file);
        if (now - info.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
      } catch {
        // raced with another process: ignore
      }
    }
  }

  /** Readiness: the directory exists and is writable. */
  async check(): Promise<void> {
    await this.init();
    await fs.access(this.tmpDir, fsConstants.W_OK);
  }

  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    this.resolveKey(request.key);
    const type = request.contentType;
    if (typeof type !== 'string' || !MEDIA_TYPE.test(type)) {
      throw new ValidationError(`Invalid content type: ${String(type)}`);
    }
    const size = request.contentSize;
    if (!Number.isSafeInteger(size) || size < 0) throw new ValidationError('contentSize must be a non-negative integer');
    if (size > this.maxBytes) {
      throw new ValidationError(`Declared size ${size} exceeds the limit of ${this.maxBytes} bytes`);
    }
    const expiresIn = request.expiresInSeconds;
    if (!Number.isSafeInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRES_IN_SECONDS) {
      throw new ValidationError(`expiresInSeconds must be an integer between 1 and ${MAX_EXPIRES_IN_SECONDS}`);
    }

    const expires = Math.floor(this.clock.now().getTime() / 1000) + expiresIn;
    const fields = { expires: String(expires), type, size: String(size) };
    const query = new URLSearchParams({ ...fields, sig: this.sign(request.key, fields) });
    return {
      url: `${this.publicUrl}/uploads/${encodeKeyForPath(request.key)}?${query.toString()}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /**
   * Checks and stores one upload sent to an URL from `createUploadUrl`. Framework-free: the HTTP
   * route passes the raw request stream (nothing may have consumed it). Nothing is stored unless
   * the whole body arrived and matched what was signed. Does not destroy `body` when it stops
   * reading early; the caller decides what to do with the rest of the request.
   * Throws only on local I/O failures (disk full, permissions).
   */
  async acceptUpload(request: AcceptUploadRequest): Promise<AcceptUploadResult> {
    let target: string;
    try {
      target = this.resolveKey(request.key);
    } catch (error) {
      return { status: 400, error: error instanceof Error ? error.message : 'Invalid key' };
    }

    const expires = single(request.query.expires);
    const type = single(request.query.type);
    const size = single(request.query.size);
    const sig = single(request.query.sig);
    if (
      expires === undefined || !DIGITS.test(expires) ||
      size === undefined || !DIGITS.test(size) ||
      type === undefined || type === '' ||
      sig === undefined || !HEX_SHA256.test(sig)
    ) {
      return { status: 403, error: 'Missing or malformed upload signature' };
    }
    const expected = Buffer.from(this.sign(request.key, { expires, type, size }), 'hex');
    const given = Buffer.from(sig.toLowerCase(), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { status: 403, error: 'Invalid upload signature' };
    }
    if (this.clock.now().getTime() >= Number(expires) * 1000) {
      return { status: 403, error: 'Upload URL has expired' };
    }

    const declared = Number(size);
    if (declared > this.maxBytes) {
      return { status: 413, error: `File is larger than the limit of ${this.maxBytes} bytes` };
    }
    if (mediaTypeEssence(request.contentType) !== mediaTypeEssence(type)) {
      return {
        status: 415,
        error: `Content-Type must be "${type}" as signed in the upload URL (got ${request.contentType ? `"${request.contentType}"` : 'none'})`,
      };
    }
    if (request.contentLength !== undefined) {
      if (request.contentLength > declared) {
        return { status: 413, error: `Body of ${request.contentLength} bytes is larger than the declared size of ${declared} bytes` };
      }
      if (request.contentLength < declared) {
        return { status: 400, error: `Body of ${request.contentLength} bytes is shorter than the declared size of ${declared} bytes` };
      }
    }

    await this.init();
    const id = randomUUID();
    const tmpData = path.join(this.tmpDir, `${id}.part`);
    const tmpMeta = path.join(this.tmpDir, `${id}.meta`);
    let kept = false;
    try {
      const received = await this.receive(request.body, tmpData, declared);
      if (received.kind === 'too-large') {
        return { status: 413, error: `Body is larger than the declared size of ${declared} bytes` };
      }
      if (received.kind === 'interrupted') {
        return { status: 400, error: 'Upload was interrupted' };
      }
      if (received.bytes !== declared) {
        return { status: 400, error: `Body of ${received.bytes} bytes is shorter than the declared size of ${declared} bytes` };
      }

      const sidecar: Sidecar = { contentType: type, size: declared, uploadedAt: this.clock.now().toISOString() };
      await fs.writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      const metaTarget = this.metaPathFor(target);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.mkdir(path.dirname(metaTarget), { recursive: true });
      // Bytes first, then the sidecar: stat's size always comes from the file itself.
      await fs.rename(tmpData, target);
      kept = true;
      await fs.rename(tmpMeta, metaTarget);
      return { status: 200 };
    } finally {
      if (!kept) await fs.rm(tmpData, { force: true });
      await fs.rm(tmpMeta, { force: true });
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const file = this.resolveKey(key);
    let info;
    try {
      info = await fs.stat(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (!info.isFile()) return null;
    const sidecar = await this.readSidecar(file);
    return sidecar?.contentType ? { size: info.size, contentType: sidecar.contentType } : { size: info.size };
  }

  async read(key: string): Promise<Uint8Array> {
    const file = this.resolveKey(key);
    try {
      return await fs.readFile(file);
    } catch (error) {
      if (isMissing(error) || errorCode(error) === 'EISDIR') throw new NotFoundError(`No object under key ${key}`);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    const file = this.resolveKey(key);
    for (const target of [file, this.metaPathFor(file)]) {
      try {
        await fs.unlink(target);
      } catch (error) {
        if (isMissing(error)) continue;
        // `objects/a` is a directory when only `a/b` exists: there is no object `a` to remove.
        // (unlink says EISDIR on Linux, EPERM on macOS.)
        const code = errorCode(error);
        if ((code === 'EISDIR' || code === 'EPERM') && (await isDirectory(target))) continue;
        throw error;
      }
    }
  }

  /** Streams the body into `tmpFile`, stopping as soon as it exceeds `limit` bytes. */
  private async receive(
    body: AcceptUploadRequest['body'],
    tmpFile: string,
    limit: number,
  ): Promise<{ kind: 'ok'; bytes: number } | { kind: 'too-large' } | { kind: 'interrupted' }> {
    const handle = await fs.open(tmpFile, 'wx', 0o644);
    try {
      let bytes = 0;
      const iterator = iterate(body);
      for (;;) {
        let next: IteratorResult<Uint8Array | string>;
        try {
          next = await iterator.next();
        } catch {
          return { kind: 'interrupted' };
        }
        if (next.done) break;
        const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        bytes += chunk.byteLength;
        if (bytes > limit) {
          // Stop reading. For a Node stream the iterator was made with destroyOnReturn: false, so
          // this only detaches it; the request stays open for the refusal to be sent.
          await iterator.return?.();
          return { kind: 'too-large' };
        }
        await handle.write(chunk);
      }
      await handle.datasync();
      return { kind: 'ok', bytes };
    } finally {
      await handle.close();
    }
  }

  private sign(key: string, fields: { expires: string; type: string; size: string }): string {
    // Each field is percent-encoded so that the `|` separator cannot be forged from inside a field.
    const message = ['PUT', key, fields.expires, fields.type, fields.size].map(encodeURIComponent).join('|');
    return createHmac('sha256', this.secret).update(message, 'utf8').digest('hex');
  }

  /** The absolute path of a key's bytes; throws ValidationError for any key that could leave `objects/`. */
  private resolveKey(key: string): string {
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

  private metaPathFor(objectPath: string): string {
    return path.join(this.metaDir, `${path.relative(this.objectsDir, objectPath)}.json`);
  }

  private async readSidecar(objectPath: string): Promise<Sidecar | undefined> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.metaPathFor(objectPath), 'utf8'));
      if (parsed && typeof parsed === 'object' && typeof (parsed as Sidecar).contentType === 'string') {
        return parsed as Sidecar;
      }
    } catch {
      // missing or damaged sidecar: the object is still there, without a content type
    }
    return undefined;
  }
}

const DIGITS = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/** `image/JPEG; charset=x` → `image/jpeg`; parameters are not compared. */
function mediaTypeEssence(value: string | undefined): string | undefined {
  const essence = value?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Percent-encodes each path segment; `/` stays a separator. */
export function encodeKeyForPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

function iterate(body: AcceptUploadRequest['body']): AsyncIterator<Uint8Array | string> {
  const stream = body as NodeJS.ReadableStream & { iterator?: (options: { destroyOnReturn: boolean }) => AsyncIterableIterator<Uint8Array> };
  if (typeof stream.iterator === 'function') return stream.iterator({ destroyOnReturn: false });
  return (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await fs.lstat(file)).isDirectory();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
