import { InMemoryUploadRepo } from '../fakes/in-memory-upload-repo.js';
import { uploadRepoContract } from './upload-repo.contract.js';

uploadRepoContract('in-memory fake', async () => ({ uploads: new InMemoryUploadRepo(), cleanup: async () => {} }));
