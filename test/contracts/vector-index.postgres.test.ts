import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresLexicalIndex } from '../../adapters/postgres/postgres-lexical-index.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { vectorIndexContract } from './vector-index.contract.js';

describeWithPostgres('PostgresLexicalIndex (real PostgreSQL)', () => {
  vectorIndexContract('PostgresLexicalIndex (real PostgreSQL)', async () => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('lexical');
    const database = await openPostgresDatabase(url);
    return {
      index: new PostgresLexicalIndex(database),
      cleanup: async () => {
        await database.close();
        await cluster.dropDatabase(url);
      },
    };
  });
});
