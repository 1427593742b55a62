export interface UploadUrlRequest {
  key: string;
  contentType: string;
  contentSize: number;
  expiresInSeconds: number;
}

export interface UploadUrl {
  url: string;
  expiresAt: string;
}

export interface BlobInfo {
  size: number;
  contentType?: string;
  /**
   * Identifies this version of the object: it changes whenever the object is replaced (S3's ETag, the local store's
   * sha256). Absent only for objects stored before it was recorded.
   */
  etag?: string;
}

/**
 * Object storage for uploaded files. Clients send bytes straight to `createUploadUrl`'s URL, never through a use case.
 * Whether a URL can be used twice depends on the store (the local store refuses it, S3 cannot): the use cases compare
 * `etag` at ingest instead of relying on it.
 */
export interface BlobStore {
  createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl>;
  /** null when there is no object under the key. */
  stat(key: string): Promise<BlobInfo | null>;
  /** The whole object; throws NotFoundError when absent. */
  read(key: string): Promise<Uint8Array>;
  /**
   * The object's bytes in order, a piece at a time, so that a long document is never held whole; the iteration throws
   * NotFoundError when the object is absent. Each call reads the object again from its start.
   */
  stream(key: string): AsyncIterable<Uint8Array>;
  /**
   * Stores bytes the service itself made (an e-mail's attachment, a document of its own) under `key`, replacing what
   * is there: a run resumed writes the same bytes again. Resolves with what stat would now say.
   */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo>;
  /** Removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}
