import { expect } from 'chai';
import { sql } from 'kysely';
import { openPostgresDatabase, type PostgresDatabase } from '../../../adapters/postgres/database.js';
import { RecordsUnavailableError } from '../../../core/domain/errors.js';
import { describeWithPostgres, stoppablePostgresCluster, type StoppablePostgresCluster } from '../../support/postgres-cluster.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/**
 * The PostgreSQL adapters' pools against a real server that stops and starts again (issue 48, point 4): while it is
 * down every way in (kysely, the pool's query, a checked-out client) fails with RecordsUnavailableError, which the
 * API answers 503; a statement's own error stays what it is; once the server is back the same pools work again.
 */
const TITLE = 'PostgreSQL pools while the server is down and back';
describeWithPostgres(TITLE, () => describe(TITLE, function () {
  this.timeout(90_000);
  let cluster: StoppablePostgresCluster;
  let database: PostgresDatabase;

  before(async () => {
    cluster = stoppablePostgresCluster();
    database = await openPostgresDatabase(await cluster.createDatabase('unavailable'));
    await database.db.insertInto('sessions').values({ id: 's1', label: 'kept', user_id: 'u1', created_at: new Date().toISOString() }).execute();
  });
  after(async () => {
    await cluster.start().catch(() => {});
    await database?.close();
  });

  it('a statement’s own error is not an outage', async () => {
    const error = await rejection(sql`SELECT no_such_column FROM sessions`.execute(database.db));
    expect(error).to.not.be.instanceOf(RecordsUnavailableError);
    expect((error as { code?: string }).code).to.equal('42703');
  });

  it('down: kysely, pool.query and pool.connect fail with RecordsUnavailableError naming the database', async () => {
    // A connection checked out before the stop: the server terminates it.
    const held = await database.pool.connect();
    await cluster.stop();
    for (const attempt of [
      () => database.db.selectFrom('sessions').selectAll().execute(),
      () => database.reads.db.selectFrom('sessions').selectAll().execute(),
      () => database.pool.query('SELECT 1'),
      () => database.search.pool.connect(),
      () => held.query('SELECT 1'),
    ]) {
      const error = await rejection(attempt());
      expect(error, String(error)).to.be.instanceOf(RecordsUnavailableError);
      expect(error).to.include({ dependency: 'database', code: 'UPSTREAM_UNAVAILABLE' });
    }
    held.release(true);
  });

  it('back on the same port: the same pools answer again, and nothing was lost', async () => {
    await cluster.start();
    const rows = await database.db.selectFrom('sessions').select(['id', 'label']).execute();
    expect(rows).to.deep.equal([{ id: 's1', label: 'kept' }]);
    expect((await database.pool.query('SELECT 1 AS one')).rows).to.deep.equal([{ one: 1 }]);
  });
}));
