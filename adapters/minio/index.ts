/** `doc-chat/adapters/minio`: a BlobStore on MinIO or any S3-compatible storage (presigned upload URLs). */
export { MinioBlobStore, type MinioBlobStoreOptions } from './minio-blob-store.js';
