import { expect } from 'chai';
import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresSessionEraser } from '../../adapters/postgres/postgres-session-eraser.js';
import { PostgresUploadRepo } from '../../adapters/postgres/postgres-upload-repo.js';
import { SqliteChatRepo } from '../../adapters/sqlite/sqlite-chat-repo.js';
import { SqliteIngestJobRepo } from '../../adapters/sqlite/sqlite-ingest-job-repo.js';
import { SqliteSessionRepo } from '../../adapters/sqlite/sqlite-session-repo.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { repoContract } from './repos.contract.js';

describeWithPostgres('Repos on PostgreSQL', () => {
  // The kysely repositories are dialect-neutral: the same classes run on the PostgreSQL schema.
  repoContract('PostgreSQL (real server)', async () => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('repos');
    const database = await openPostgresDatabase(url);
    return {
      sessions: new SqliteSessionRepo(database.db),
      chats: new SqliteChatRepo(database.db),
      jobs: new SqliteIngestJobRepo(database.db),
      uploads: new PostgresUploadRepo(database),
      eraser: new PostgresSessionEraser(database),
      // Messages are deleted before jobs: a failing job delete proves the transaction undoes what it already did.
      breakEraser: async () => {
        await database.pool.query(`
          CREATE FUNCTION break_eraser() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
          CREATE TRIGGER break_eraser BEFORE DELETE ON ingest_jobs FOR EACH ROW EXECUTE FUNCTION break_eraser();`);
        return () => database.pool.query('DROP TRIGGER break_eraser ON ingest_jobs; DROP FUNCTION break_eraser();');
      },
      cleanup: async () => {
        await database.close();
        await cluster.dropDatabase(url);
      },
    };
  });

  describe('PostgreSQL database', () => {
    it('applies migrations once, also when two instances start at the same time', async () => {
      const cluster = sharedPostgresCluster();
      const url = await cluster.createDatabase('migrations');
      try {
        const [a, b] = await Promise.all([openPostgresDatabase(url), openPostgresDatabase(url)]);
        await new SqliteSessionRepo(a.db).create({ id: 's', label: 'l', userId: 'u', createdAt: '2026-01-01T00:00:00.000Z' });
        expect(await new SqliteSessionRepo(b.db).findById('s')).to.include({ label: 'l' });
        const { rows } = await a.pool.query('SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct_names FROM kysely_migration');
        expect(rows[0].n).to.be.greaterThan(0);
        expect(rows[0].n).to.equal(rows[0].distinct_names);
        await Promise.all([a.close(), b.close()]);
      } finally {
        await cluster.dropDatabase(url);
      }
    });
  });
});
