/** `doc-chat/adapters/local-blob`: a BlobStore on the local file system with signed upload URLs. */
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  LocalBlobStore,
  type AcceptUploadRequest,
  type AcceptUploadResult,
  type LocalBlobStoreOptions,
} from './local-blob-store.js';
