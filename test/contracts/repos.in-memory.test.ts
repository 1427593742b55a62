import { InMemoryChatRepo, InMemoryIngestJobRepo, InMemorySessionEraser, InMemorySessionRepo } from '../fakes/in-memory-repos.js';
import { InMemoryUploadRepo } from '../fakes/in-memory-upload-repo.js';
import { repoContract } from './repos.contract.js';

repoContract('in-memory fakes', async () => {
  const sessions = new InMemorySessionRepo();
  const chats = new InMemoryChatRepo(sessions);
  const jobs = new InMemoryIngestJobRepo();
  const uploads = new InMemoryUploadRepo();
  const eraser = new InMemorySessionEraser({ sessions, chats, jobs, uploads });
  return {
    sessions, chats, jobs, uploads, eraser,
    breakEraser: () => {
      eraser.failWith = new Error('injected failure');
      return () => (eraser.failWith = null);
    },
    cleanup: async () => {},
  };
});
