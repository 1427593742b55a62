import { S3BlobStore } from '../../adapters/s3/s3-blob-store.js';
import { startS3Server } from '../support/s3-server.js';
import { blobStoreContract } from './blob-store.contract.js';

// s3rver checks expiry but not V4 signatures: the signature checks live in the Testcontainers suite.
blobStoreContract('S3BlobStore against s3rver', async () => {
  const s3 = await startS3Server();
  const store = new S3BlobStore({
    endpoint: s3.url,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    bucket: 'documents',
  });
  await store.init(); // creates the missing bucket
  return {
    store,
    upload: async (url, body, contentType) => {
      const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });
      await response.arrayBuffer();
      return response.status;
    },
    cleanup: () => s3.stop(),
  };
}, { singleUseUploads: false });
