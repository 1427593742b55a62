import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresUploadRepo } from '../../adapters/postgres/postgres-upload-repo.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { uploadRepoContract } from './upload-repo.contract.js';

describeWithPostgres('Upload records on PostgreSQL', () => {
  uploadRepoContract('PostgreSQL (real server)', async () => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('uploads');
    const database = await openPostgresDatabase(url);
    return {
      uploads: new PostgresUploadRepo(database),
      cleanup: async () => {
        await database.close();
        await cluster.dropDatabase(url);
      },
    };
  });
});
