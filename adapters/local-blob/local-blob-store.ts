import { createHash, randomUUID } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, OUT_OF_DISK_SPACE } from '../../core/domain/errors.js';
import type { BlobInfo, BlobStore, UploadUrl, UploadUrlRequest } from '../../core/ports/blob-store.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';
import { errorCode } from '../blob-shared/error-code.js';
import { checkMaxBytes, checkUploadUrlRequest } from '../blob-shared/upload-request.js';
import { isStorageExhausted } from '../system/disk-space.js';
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../system/private-files.js';
import { receiveBody, type UploadBody } from './body-receiver.js';
import { encodeKeyForPath, ObjectPaths } from './object-keys.js';
import { isFile, isMissing, readSidecar, removeExpiredTombstones, tombstoneExpired, unlinkFile, type Sidecar } from './sidecar-files.js';
import { UploadSigner, type UploadQuery } from './upload-signature.js';

/** Bytes per piece of stream(): few pieces for a 40 MB document, little memory each. */
const STREAM_PIECE_BYTES = 1 << 20;

export { DEFAULT_MAX_UPLOAD_BYTES } from '../blob-shared/upload-request.js';
export { encodeKeyForPath };

/** Temp files older than this are leftovers of a crash and removed by `init()`. */
const STALE_TEMP_MS = 24 * 3600 * 1000;

export interface LocalBlobStoreOptions {
  /** Root directory; `objects/`, `meta/` and `tmp/` are created under it (owner-only). */
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
  query: UploadQuery;
  /** The request's Content-Type header. */
  contentType: string | undefined;
  /** The request's Content-Length header, when sent (undefined for chunked bodies). */
  contentLength: number | undefined;
  body: UploadBody;
}

export interface AcceptUploadResult {
  /**
   * 200 stored; 400 bad key / short or interrupted body; 403 bad signature or expired; 409 URL already used;
   * 413 too large; 415 wrong Content-Type; 507 the disk filled up while it was written (nothing is kept).
   */
  status: 200 | 400 | 403 | 409 | 413 | 415 | 507;
  error?: string;
}

/** The refusal of a second PUT to an upload URL. */
export const UPLOAD_URL_USED = 'This upload URL has already been used: request a new one from /api/v1/ingest/upload/url';

const systemClock: Clock = { now: () => new Date() };

/**
 * BlobStore on the local file system, for single-node installs without object storage.
 *
 * Layout under `directory`: `objects/<key>` (the bytes), `meta/<key>.json` (content type, size, sha256),
 * `tmp/` (uploads in progress; same file system, so the final link is atomic). Everything is owner-only.
 * Upload URLs point at `localUploadRouter` (PUT /uploads/<key>) and carry an HMAC signature over key, expiry,
 * content type and size; `acceptUpload` enforces all four, and each URL works once: a PUT to a key that holds an
 * object, or held one while the URL was still valid, is refused (409).
 */
export class LocalBlobStore implements BlobStore {
  readonly name = 'blob storage';
  readonly maxBytes: number;
  private readonly root: string;
  private readonly paths: ObjectPaths;
  private readonly tmpDir: string;
  private readonly publicUrl: string;
  private readonly signer: UploadSigner;
  private readonly clock: Clock;
  private initialised: Promise<void> | undefined;

  constructor(options: LocalBlobStoreOptions) {
    if (!options.directory) throw new Error('LocalBlobStore: directory is required');
    this.root = path.resolve(options.directory);
    this.paths = new ObjectPaths(path.join(this.root, 'objects'), path.join(this.root, 'meta'));
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
    this.signer = new UploadSigner(options.secret);
    this.maxBytes = checkMaxBytes('LocalBlobStore', options.maxBytes);
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Creates the directories (owner-only), removes temp files left by a crash and sidecars of removed objects whose
   * upload URL has expired. Idempotent; other methods call it lazily.
   */
  init(): Promise<void> {
    this.initialised ??= this.doInit().catch((error: unknown) => {
      this.initialised = undefined;
      throw error;
    });
    return this.initialised;
  }

  private async doInit(): Promise<void> {
    for (const dir of [this.root, this.paths.objectsDir, this.paths.metaDir, this.tmpDir]) ensurePrivateDir(dir);
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
    await removeExpiredTombstones(this.paths, this.clock.now().getTime());
  }

  /** Readiness: the directory exists and is writable. */
  async check(): Promise<void> {
    await this.init();
    await fs.access(this.tmpDir, fsConstants.W_OK);
  }

  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    this.paths.objectPath(request.key);
    checkUploadUrlRequest(request, this.maxBytes);
    const expires = Math.floor(this.clock.now().getTime() / 1000) + request.expiresInSeconds;
    const query = this.signer.query(request.key, { expires: String(expires), type: request.contentType, size: String(request.contentSize) });
    return {
      url: `${this.publicUrl}/uploads/${encodeKeyForPath(request.key)}?${query}`,
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
      target = this.paths.objectPath(request.key);
    } catch (error) {
      return { status: 400, error: error instanceof Error ? error.message : 'Invalid key' };
    }
    const signature = this.signer.verify(request.key, request.query, this.clock.now().getTime());
    if (!signature.ok) return { status: 403, error: signature.error };
    const { type, size } = signature.fields;

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
    // Checked before reading the body so a replay costs no bandwidth; the link below settles races.
    if (await this.wasUsed(target)) return { status: 409, error: UPLOAD_URL_USED };

    const id = randomUUID();
    const tmpData = path.join(this.tmpDir, `${id}.part`);
    const tmpMeta = path.join(this.tmpDir, `${id}.meta`);
    try {
      const received = await receiveBody(request.body, tmpData, declared);
      if (received.kind === 'too-large') {
        return { status: 413, error: `Body is larger than the declared size of ${declared} bytes` };
      }
      if (received.kind === 'interrupted') {
        return { status: 400, error: 'Upload was interrupted' };
      }
      if (received.bytes !== declared) {
        return { status: 400, error: `Body of ${received.bytes} bytes is shorter than the declared size of ${declared} bytes` };
      }

      const sidecar: Sidecar = {
        contentType: type,
        size: declared,
        uploadedAt: this.clock.now().toISOString(),
        sha256: received.sha256,
        urlExpiresAt: new Date(signature.expiresAtMs).toISOString(),
      };
      await fs.writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx', mode: PRIVATE_FILE_MODE });
      const metaTarget = this.paths.metaPath(target);
      await fs.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fs.mkdir(path.dirname(metaTarget), { recursive: true, mode: PRIVATE_DIR_MODE });
      // Bytes first, then the sidecar: stat's size always comes from the file itself. link() never replaces:
      // of two PUTs racing on one URL, the second gets EEXIST.
      try {
        await fs.link(tmpData, target);
      } catch (error) {
        if (errorCode(error) === 'EEXIST') return { status: 409, error: UPLOAD_URL_USED };
        throw error;
      }
      await fs.rename(tmpMeta, metaTarget);
      return { status: 200 };
    } catch (error) {
      // The disk filled up while the file was written: its partial copy goes (below), and the client is told why.
      if (isStorageExhausted(error)) return { status: 507, error: OUT_OF_DISK_SPACE };
      throw error;
    } finally {
      await fs.rm(tmpData, { force: true });
      await fs.rm(tmpMeta, { force: true });
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const file = this.paths.objectPath(key);
    let info;
    try {
      info = await fs.stat(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (!info.isFile()) return null;
    const result: BlobInfo = { size: info.size };
    const sidecar = await readSidecar(this.paths.metaPath(file));
    if (sidecar?.contentType) result.contentType = sidecar.contentType;
    if (sidecar?.sha256) result.etag = sidecar.sha256;
    return result;
  }

  async read(key: string): Promise<Uint8Array> {
    const file = this.paths.objectPath(key);
    try {
      return await fs.readFile(file);
    } catch (error) {
      if (isMissing(error) || errorCode(error) === 'EISDIR') throw new NotFoundError(`No object under key ${key}`);
      throw error;
    }
  }

  async *stream(key: string): AsyncIterable<Uint8Array> {
    const file = this.paths.objectPath(key);
    try {
      for await (const chunk of createReadStream(file, { highWaterMark: STREAM_PIECE_BYTES })) yield chunk as Buffer;
    } catch (error) {
      // Opening is what fails for a missing object, before any piece is given.
      if (isMissing(error) || errorCode(error) === 'EISDIR') throw new NotFoundError(`No object under key ${key}`);
      throw error;
    }
  }

  /** Written as an upload is (temporary file, then renamed), with no upload URL: the sidecar records none. */
  async write(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo> {
    const target = this.paths.objectPath(key);
    await this.init();
    const id = randomUUID();
    const tmpData = path.join(this.tmpDir, `${id}.part`);
    const tmpMeta = path.join(this.tmpDir, `${id}.meta`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const sidecar: Sidecar = { contentType, size: bytes.byteLength, uploadedAt: this.clock.now().toISOString(), sha256 };
    try {
      await fs.writeFile(tmpData, bytes, { mode: PRIVATE_FILE_MODE });
      await fs.writeFile(tmpMeta, JSON.stringify(sidecar), { mode: PRIVATE_FILE_MODE });
      await fs.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fs.mkdir(path.dirname(this.paths.metaPath(target)), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fs.rename(tmpData, target);
      await fs.rename(tmpMeta, this.paths.metaPath(target));
    } finally {
      await fs.rm(tmpData, { force: true });
      await fs.rm(tmpMeta, { force: true });
    }
    return { size: bytes.byteLength, contentType, etag: sha256 };
  }

  /** Removes the bytes; the sidecar stays as a tombstone while the upload URL is valid, so it cannot be used again. */
  async remove(key: string): Promise<void> {
    const file = this.paths.objectPath(key);
    const meta = this.paths.metaPath(file);
    await unlinkFile(file);
    if (tombstoneExpired(await readSidecar(meta), this.clock.now().getTime())) await unlinkFile(meta);
  }

  /** Whether the key holds an object, or held one uploaded through a URL that has not expired yet. */
  private async wasUsed(target: string): Promise<boolean> {
    return (await isFile(target)) || (await isFile(this.paths.metaPath(target)));
  }
}

/** `image/JPEG; charset=x` → `image/jpeg`; parameters are not compared. */
function mediaTypeEssence(value: string | undefined): string | undefined {
  const essence = value?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}
