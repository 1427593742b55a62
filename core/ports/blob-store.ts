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
}

/** Object storage for uploaded files. Clients send bytes straight to `createUploadUrl`'s URL, never through a use case. */
export interface BlobStore {
  createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl>;
  /** null when there is no object under the key. */
  stat(key: string): Promise<BlobInfo | null>;
  /** The whole object; throws NotFoundError when absent. */
  read(key: string): Promise<Uint8Array>;
  /** Removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}
