import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { BlobStore } from '../../core/ports/blob-store.js';
import { LocalBlobStore } from '../../adapters/local-blob/local-blob-store.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import { lifecycleOf, type Lifecycle } from './lifecycle.js';

/** Uploaded files: on local disk behind signed URLs the app serves itself, or in MinIO/S3 with presigned URLs. */
export async function filesModule(config: Config): Promise<ContainerModule> {
  const blobs = config.blobs;
  if (blobs.kind === 'minio') {
    // Imported only when configured: the MinIO client alone costs ~40 MB of resident memory.
    const { MinioBlobStore } = await import('../../adapters/minio/minio-blob-store.js');
    return new ContainerModule(({ bind }) => {
      bind<BlobStore>(TOKENS.BlobStore).toDynamicValue(
        () => new MinioBlobStore({
          endpoint: blobs.endpoint, accessKey: blobs.accessKey, secretKey: blobs.secretKey, bucket: blobs.bucket, publicUrl: blobs.publicUrl,
        }),
      );
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) =>
        lifecycleOf('object storage (MinIO)', ctx.get<InstanceType<typeof MinioBlobStore>>(TOKENS.BlobStore)),
      );
    });
  }
  return new ContainerModule(({ bind }) => {
    bind<BlobStore>(TOKENS.BlobStore).toDynamicValue(
      () => new LocalBlobStore({
        directory: path.join(config.dataDir, 'blobs'),
        publicUrl: config.publicUrl,
        secret: loadOrCreateSecret(path.join(config.dataDir, 'upload-signing-secret')),
      }),
    );
    // Its folders are made at init; it is the app's own disk, so readiness does not list it.
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => {
      const store = ctx.get<LocalBlobStore>(TOKENS.BlobStore);
      return { name: 'file storage (local disk)', init: () => store.init() };
    });
  });
}
