import { KyselyChatRepo } from '../../adapters/kysely/kysely-chat-repo.js';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresRecordSearch } from '../../adapters/postgres/postgres-record-search.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { recordSearchContract } from './record-search.contract.js';

describeWithPostgres('RecordSearch on PostgreSQL', () => {
  recordSearchContract('PostgreSQL full text (real server)', async () => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('record_search');
    const database = await openPostgresDatabase(url);
    return {
      sessions: new KyselySessionRepo(database.db),
      chats: new KyselyChatRepo(database.db),
      search: new PostgresRecordSearch(database),
      cleanup: async () => {
        await database.close();
        await cluster.dropDatabase(url);
      },
    };
  });
});
