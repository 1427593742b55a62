import { InMemoryChatRepo, InMemoryIngestJobRepo, InMemorySessionRepo } from '../fakes/in-memory-repos.js';
import { repoContract } from './repos.contract.js';

repoContract('in-memory fakes', async () => ({
  sessions: new InMemorySessionRepo(),
  chats: new InMemoryChatRepo(),
  jobs: new InMemoryIngestJobRepo(),
  cleanup: async () => {},
}));
