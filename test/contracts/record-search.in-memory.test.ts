import { InMemoryChatRepo, InMemorySessionRepo } from '../fakes/in-memory-repos.js';
import { InMemoryRecordSearch } from '../fakes/in-memory-record-search.js';
import { recordSearchContract } from './record-search.contract.js';

recordSearchContract('in-memory fake', async () => {
  const sessions = new InMemorySessionRepo();
  const chats = new InMemoryChatRepo(sessions);
  return { sessions, chats, search: new InMemoryRecordSearch(sessions, chats), cleanup: async () => {} };
});
