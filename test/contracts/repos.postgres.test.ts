import { expect } from 'chai';
import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { postgresRepoSubject } from '../support/postgres-repo-subject.js';
import { repoContract } from './repos.contract.js';

describeWithPostgres('Repos on PostgreSQL', () => {
  repoContract('PostgreSQL (real server)', async () => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('repos');
    return postgresRepoSubject(url, () => cluster.dropDatabase(url));
  });

  describe('PostgreSQL database', () => {
    it('applies migrations once, also when two instances start at the same time', async () => {
      const cluster = sharedPostgresCluster();
      const url = await cluster.createDatabase('migrations');
      try {
        const [a, b] = await Promise.all([openPostgresDatabase(url), openPostgresDatabase(url)]);
        await new KyselySessionRepo(a.db).create({ id: 's', label: 'l', userId: 'u', createdAt: '2026-01-01T00:00:00.000Z' });
        expect(await new KyselySessionRepo(b.db).findById('s')).to.include({ label: 'l' });
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
