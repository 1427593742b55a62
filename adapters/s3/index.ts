/**
 * `doc-chat/adapters/s3`: a BlobStore on any S3-compatible server (presigned upload URLs). Also exported as
 * `doc-chat/adapters/minio`, its name before it was named for what it speaks, with the old class names below.
 */
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';

export { S3BlobStore, type S3BlobStoreOptions };
/** @deprecated The same class as S3BlobStore, under its old name. */
export const MinioBlobStore = S3BlobStore;
/** @deprecated S3BlobStoreOptions under its old name. */
export type MinioBlobStoreOptions = S3BlobStoreOptions;
