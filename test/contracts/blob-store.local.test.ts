import { blobStoreContract } from './blob-store.contract.js';
import { httpPut, startLocalUploadServer } from '../integration/local-blob/local-upload-server.js';

blobStoreContract('LocalBlobStore behind Koa (localUploadRouter)', async () => {
  const server = await startLocalUploadServer();
  return {
    store: server.store,
    upload: (url, body, contentType) => httpPut(url, body, contentType),
    cleanup: () => server.stop(),
  };
}, { singleUseUploads: true });
