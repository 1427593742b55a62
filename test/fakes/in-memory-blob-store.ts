import { createHash, randomUUID } from 'node:crypto';
import { NotFoundError, UpstreamUnavailableError, ValidationError } from '../../core/domain/errors.js';
import type { BlobInfo, BlobStore, UploadUrl, UploadUrlRequest } from '../../core/ports/blob-store.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';

interface StoredBlob {
  bytes: Uint8Array;
  contentType?: string;
  etag: string;
}

interface PendingUpload {
  key: string;
  contentType: string;
  contentSize: number;
  expiresAtMs: number;
}

/**
 * BlobStore in memory for core unit tests. Upload URLs look like `memory://blobs/<key>?token=…`;
 * `putViaUrl` plays the client's PUT and enforces what the URL was made for (key, expiry, content
 * type, size), answering with the HTTP status a real store would. `put` stores directly (and may replace, as
 * a replayed S3 URL does). With `singleUseUploads` (the default, as the local store) an upload URL works once: a
 * PUT to a key that was ever written is 409; without it, a PUT replaces the object as S3 does.
 */
export class InMemoryBlobStore implements BlobStore {
  readonly name = 'object storage';
  private readonly blobs = new Map<string, StoredBlob>();
  private readonly pending = new Map<string, PendingUpload>();
  private readonly clock: Clock;
  private readonly maxBytes: number;
  private readonly singleUseUploads: boolean;
  /** Keys ever written through an upload URL, removed or not. */
  private readonly used = new Set<string>();
  private unavailable = false;
  /** Every createUploadUrl request, in order. */
  readonly uploadUrlRequests: UploadUrlRequest[] = [];

  constructor(options: { clock?: Clock; maxBytes?: number; singleUseUploads?: boolean } = {}) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.maxBytes = options.maxBytes ?? 52_428_800;
    this.singleUseUploads = options.singleUseUploads ?? true;
  }

  /** While set, every call fails with UpstreamUnavailableError('object storage', …). */
  setUnavailable(unavailable: boolean): void {
    this.unavailable = unavailable;
  }

  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    this.assertAvailable();
    if (!request.key || request.key.startsWith('/') || request.key.split('/').some((s) => s === '..' || s === '.' || s === '')) {
      throw new ValidationError(`Invalid key: ${request.key}`);
    }
    if (!Number.isSafeInteger(request.contentSize) || request.contentSize < 0 || request.contentSize > this.maxBytes) {
      throw new ValidationError(`Declared size ${request.contentSize} is not between 0 and ${this.maxBytes} bytes`);
    }
    if (!Number.isSafeInteger(request.expiresInSeconds) || request.expiresInSeconds < 1) {
      throw new ValidationError('expiresInSeconds must be a positive integer');
    }
    this.uploadUrlRequests.push({ ...request });
    const token = randomUUID();
    const expiresAtMs = this.clock.now().getTime() + request.expiresInSeconds * 1000;
    this.pending.set(token, { key: request.key, contentType: request.contentType, contentSize: request.contentSize, expiresAtMs });
    const path = request.key.split('/').map(encodeURIComponent).join('/');
    return { url: `memory://blobs/${path}?token=${token}`, expiresAt: new Date(expiresAtMs).toISOString() };
  }

  /** The client's PUT to an upload URL. Returns 200, or 403/409/413/415/400 and stores nothing. */
  putViaUrl(url: string, body: Uint8Array, contentType: string | undefined): number {
    if (this.unavailable) return 503;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 400;
    }
    const pending = this.pending.get(parsed.searchParams.get('token') ?? '');
    if (parsed.protocol !== 'memory:' || !pending) return 403;
    const key = decodeURIComponent(parsed.pathname.replace(/^\/+/, ''));
    if (key !== pending.key) return 403;
    if (this.clock.now().getTime() >= pending.expiresAtMs) return 403;
    if (contentType?.split(';')[0]?.trim().toLowerCase() !== pending.contentType.toLowerCase()) return 415;
    if (body.byteLength > pending.contentSize) return 413;
    if (body.byteLength < pending.contentSize) return 400;
    if (this.singleUseUploads && (this.used.has(key) || this.blobs.has(key))) return 409;
    this.used.add(key);
    this.put(key, body, pending.contentType);
    return 200;
  }

  /** Stores bytes directly, as if a client had uploaded them. */
  put(key: string, bytes: Uint8Array | string, contentType?: string): void {
    const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : Uint8Array.from(bytes);
    const etag = createHash('sha256').update(data).digest('hex');
    this.blobs.set(key, contentType === undefined ? { bytes: data, etag } : { bytes: data, contentType, etag });
  }

  /** Keys currently stored, sorted. */
  keys(): string[] {
    return [...this.blobs.keys()].sort();
  }

  async stat(key: string): Promise<BlobInfo | null> {
    this.assertAvailable();
    const blob = this.blobs.get(key);
    if (!blob) return null;
    const info: BlobInfo = { size: blob.bytes.byteLength, etag: blob.etag };
    if (blob.contentType !== undefined) info.contentType = blob.contentType;
    return info;
  }

  async read(key: string): Promise<Uint8Array> {
    this.assertAvailable();
    const blob = this.blobs.get(key);
    if (!blob) throw new NotFoundError(`No object under key ${key}`);
    return Uint8Array.from(blob.bytes);
  }

  /** Every piece stream() has given, weakly: a test sees whether anything still holds one. */
  readonly piecesStreamed: WeakRef<Uint8Array>[] = [];

  async *stream(key: string): AsyncIterable<Uint8Array> {
    const bytes = await this.read(key);
    // In pieces, as real stores give them: a consumer that assumes one piece fails here too.
    for (let start = 0; start < bytes.length; start += FAKE_STREAM_PIECE) {
      const piece = bytes.slice(start, start + FAKE_STREAM_PIECE);
      this.piecesStreamed.push(new WeakRef(piece));
      yield piece;
    }
  }

  async write(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo> {
    this.assertAvailable();
    this.put(key, bytes, contentType);
    return (await this.stat(key))!;
  }

  async remove(key: string): Promise<void> {
    this.assertAvailable();
    this.blobs.delete(key);
  }

  private assertAvailable(): void {
    if (this.unavailable) throw new UpstreamUnavailableError('object storage', 'In-memory blob store set to unavailable');
  }
}

const FAKE_STREAM_PIECE = 16 * 1024;
