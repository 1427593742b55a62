import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { NotFoundError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { BlobInfo, BlobStore, UploadUrl, UploadUrlRequest } from '../../core/ports/blob-store.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';
import { errorCode } from '../blob-shared/error-code.js';
import { unreachableCode } from '../system/network-errors.js';
import { checkMaxBytes, checkUploadUrlRequest } from '../blob-shared/upload-request.js';

const DEPENDENCY = 'object storage';

export interface S3BlobStoreOptions {
  /** Where this service reaches the S3 server, e.g. `http://seaweedfs:8333` (S3_ENDPOINT). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /**
   * Where clients reach the same server, e.g. `https://files.example.com` (S3_PUBLIC_URL).
   * Upload URLs are signed for this host. A path prefix (`https://example.com/s3`) is kept in the
   * URL but not signed: the reverse proxy must strip it and pass the Host header through.
   * Default: the endpoint.
   */
  publicUrl?: string;
  /** Signing region (default `us-east-1`). Setting it keeps presigning free of network calls. */
  region?: string;
  /** A request that sees no progress for this long fails with UpstreamUnavailableError (default 10000 ms). */
  timeoutMs?: number;
  /** Largest size an upload URL is signed for (default 52428800). S3 presigned PUTs cannot enforce it. */
  maxBytes?: number;
  clock?: Clock;
}

interface ParsedEndpoint {
  endPoint: string;
  port: number;
  useSSL: boolean;
  /** Path prefix without trailing slash, '' when none. */
  prefix: string;
  label: string;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * BlobStore on any S3-compatible server (SeaweedFS in the compose stack, AWS S3, MinIO, Garage, ...) through the
 * `minio` client, which speaks plain S3 with path-style URLs. The S3 calls it makes: HeadBucket and CreateBucket
 * (init), HeadBucket (check), HeadObject (stat), GetObject (read, stream), DeleteObject (remove), and PUT URLs it
 * presigns offline with AWS Signature V4 (createUploadUrl).
 *
 * Note: presigned PUT URLs bind only the key, the Host and the expiry; the Content-Type and
 * the size the client sends are not enforced by S3, and the URL can be used again (replacing
 * the object) until it expires. Check `stat()` (size, etag) before trusting an upload.
 */
export class S3BlobStore implements BlobStore {
  readonly name = DEPENDENCY;
  readonly bucket: string;
  private readonly client: Client;
  private readonly presignClient: Client;
  private readonly publicPrefix: string;
  private readonly label: string;
  private readonly region: string;
  private readonly maxBytes: number;
  private readonly clock: Clock;

  constructor(options: S3BlobStoreOptions) {
    const internal = parseEndpoint(options.endpoint, 'endpoint');
    if (internal.prefix) throw new Error('S3BlobStore: endpoint must not have a path');
    const external = options.publicUrl ? parseEndpoint(options.publicUrl, 'publicUrl') : internal;
    if (!options.bucket) throw new Error('S3BlobStore: bucket is required');
    if (!options.accessKey || !options.secretKey) throw new Error('S3BlobStore: accessKey and secretKey are required');

    this.bucket = options.bucket;
    this.region = options.region ?? 'us-east-1';
    this.label = internal.label;
    this.publicPrefix = external.prefix;
    this.maxBytes = checkMaxBytes('S3BlobStore', options.maxBytes);
    this.clock = options.clock ?? systemClock;
    const timeoutMs = options.timeoutMs ?? 10_000;

    const common = {
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: this.region,
      pathStyle: true,
    };
    this.client = new Client({
      ...common,
      endPoint: internal.endPoint,
      port: internal.port,
      useSSL: internal.useSSL,
      transport: timedTransport(internal.useSSL ? https : http, timeoutMs),
      // Failures are reported to the caller at once (503 → the HTTP layer); no sleeping retries.
      retryOptions: { disableRetry: true },
    });
    // Only ever used to presign, which is offline when the region is set.
    this.presignClient =
      external === internal
        ? this.client
        : new Client({ ...common, endPoint: external.endPoint, port: external.port, useSSL: external.useSSL });
  }

  /** Creates the bucket when missing. Call once at start. */
  async init(): Promise<void> {
    await this.call('create bucket', async () => {
      if (await this.client.bucketExists(this.bucket)) return;
      try {
        await this.client.makeBucket(this.bucket, this.region);
      } catch (error) {
        const code = errorCode(error);
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      }
    });
  }

  /** Readiness: the server answers and the bucket exists. */
  async check(): Promise<void> {
    const exists = await this.call('check bucket', () => this.client.bucketExists(this.bucket));
    if (!exists) throw new UpstreamUnavailableError(DEPENDENCY, `Bucket ${this.bucket} does not exist on ${this.label}`);
  }

  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    checkUploadUrlRequest(request, this.maxBytes);
    const expiresIn = request.expiresInSeconds;
    // Whole seconds: the signature carries X-Amz-Date to the second.
    const signedAt = new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000);
    let url = await this.presignClient.presignedUrl('PUT', this.bucket, request.key, expiresIn, {}, signedAt);
    if (this.publicPrefix) {
      const parsed = new URL(url);
      url = `${parsed.origin}${this.publicPrefix}${parsed.pathname}${parsed.search}`;
    }
    return { url, expiresAt: new Date(signedAt.getTime() + expiresIn * 1000).toISOString() };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    return this.call('stat', async () => {
      try {
        const info = await this.client.statObject(this.bucket, key);
        const result: BlobInfo = { size: info.size };
        const contentType = info.metaData?.['content-type'];
        if (typeof contentType === 'string' && contentType) result.contentType = contentType;
        if (info.etag) result.etag = info.etag;
        return result;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    });
  }

  async read(key: string): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.stream(key)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async *stream(key: string): AsyncIterable<Uint8Array> {
    try {
      let stream: Readable;
      try {
        stream = await this.client.getObject(this.bucket, key);
      } catch (error) {
        if (isNotFound(error)) throw new NotFoundError(`No object under key ${key}`);
        throw error;
      }
      for await (const chunk of stream) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    } catch (error) {
      throw this.unavailable('read', error); // also a connection lost half-way through the object
    }
  }

  async write(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo> {
    return this.call('write', async () => {
      const written = await this.client.putObject(this.bucket, key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes.byteLength, { 'Content-Type': contentType });
      return { size: bytes.byteLength, contentType, etag: written.etag };
    });
  }

  async remove(key: string): Promise<void> {
    await this.call('remove', async () => {
      try {
        await this.client.removeObject(this.bucket, key);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    });
  }

  /** Runs one storage operation, turning "cannot reach the server" into UpstreamUnavailableError. */
  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.unavailable(operation, error);
    }
  }

  /** The error to throw for `error`: UpstreamUnavailableError when the server could not be reached, else itself. */
  private unavailable(operation: string, error: unknown): unknown {
    if (error instanceof NotFoundError || error instanceof UpstreamUnavailableError) return error;
    const reason = unavailableReason(error);
    if (!reason) return error;
    return new UpstreamUnavailableError(DEPENDENCY, `Object storage at ${this.label} did not answer (${operation}: ${reason})`, { cause: error });
  }
}

function parseEndpoint(value: string, option: string): ParsedEndpoint {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`S3BlobStore: ${option} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`S3BlobStore: ${option} must be http(s)`);
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`S3BlobStore: ${option} must not carry credentials, a query or a fragment`);
  }
  const useSSL = url.protocol === 'https:';
  // IPv6 literals come back bracketed from URL; the minio client wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    endPoint: host,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    prefix: url.pathname.replace(/\/+$/, ''),
    label: url.host,
  };
}

/** http(s).request with an idle timeout (connect included) that fails the request with ETIMEDOUT. */
function timedTransport(base: typeof http | typeof https, timeoutMs: number): Pick<typeof http, 'request'> {
  const request = (...args: unknown[]): http.ClientRequest => {
    const req = (base.request as (...a: unknown[]) => http.ClientRequest)(...args);
    req.setTimeout(timeoutMs, () => {
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    });
    return req;
  };
  return { request: request as typeof http.request };
}

const UNAVAILABLE_S3_CODES = new Set([
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'RequestTimeout',
  'XMinioServerNotInitialized',
  'XMinioReadQuorum',
  'XMinioWriteQuorum',
]);

function unavailableReason(error: unknown): string | undefined {
  const network = unreachableCode(error);
  if (network) return network;
  const code = errorCode(error);
  if (code && UNAVAILABLE_S3_CODES.has(code)) return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = unavailableReason(inner);
      if (reason) return reason;
    }
  }
  // The minio client's own wording when a retryable HTTP status (5xx, 429) came back.
  if (error instanceof Error && /Retryable HTTP status: (\d+)/.test(error.message)) {
    return `HTTP ${/Retryable HTTP status: (\d+)/.exec(error.message)?.[1]}`;
  }
  return undefined;
}

function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'NoSuchKey' || code === 'NotFound';
}
