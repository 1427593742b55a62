import { expect } from 'chai';
import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresSessionEraser } from '../../adapters/postgres/postgres-session-eraser.js';
import { KyselyChatRepo } from '../../adapters/kysely/kysely-chat-repo.js';
import { KyselyIngestJobRepo } from '../../adapters/kysely/kysely-ingest-job-repo.js';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { postgresRepoSubject } from '../support/postgres-repo-subject.js';
import { expectJobBeforeCheckpointsTakesOne, expectJobBeforeUnitsTakesThem, JOB_BEFORE_CHECKPOINTS, repoContract } from './repos.contract.js';

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

    it('a session cleared or deleted through one instance reads so through another, at once (no ownership or page is cached)', async () => {
      const cluster = sharedPostgresCluster();
      const url = await cluster.createDatabase('two_instances');
      try {
        const [a, b] = await Promise.all([openPostgresDatabase(url), openPostgresDatabase(url)]);
        const at = '2026-01-01T00:00:00.000Z';
        await new KyselySessionRepo(a.db).create({ id: 's', label: 'l', userId: 'u', createdAt: at });
        await new KyselyChatRepo(a.db).appendExchange({ id: 'q', sessionId: 's', role: 'user', content: 'q', createdAt: at }, { id: 'r', sessionId: 's', role: 'assistant', content: 'r', createdAt: at });
        // One repo on B all along, so the turns it read are held in it (turns are kept by id, ownership never).
        const chatsB = new KyselyChatRepo(b.db, b.reads.db);
        const readThroughB = () => chatsB.ownedPage('s', 'u', 0, 20);
        expect((await readThroughB())!.total).to.equal(2);
        expect((await readThroughB())!.messages.map((m) => m.content)).to.deep.equal(['q', 'r']);
        // Cleared and asked again through A: B reads the new turns, not the ones it holds.
        await new KyselyChatRepo(a.db).deleteBySession('s');
        await new KyselyChatRepo(a.db).appendExchange({ id: 'q2', sessionId: 's', role: 'user', content: 'q2', createdAt: at }, { id: 'r2', sessionId: 's', role: 'assistant', content: 'r2', createdAt: at });
        expect(await readThroughB()).to.deep.equal({ messages: await new KyselyChatRepo(a.db).page('s', 0, 20), total: 2 });
        await new PostgresSessionEraser(a).erase('s', { remove: [], release: [] });
        expect(await readThroughB()).to.equal(null);
        await Promise.all([a.close(), b.close()]);
      } finally {
        await cluster.dropDatabase(url);
      }
    });

    it('migration 003 counts the messages an older version stored, then triggers keep the count', async () => {
      const cluster = sharedPostgresCluster();
      const url = await cluster.createDatabase('message_count');
      try {
        // Roll the schema back to before migration 003 and store messages as an older version did.
        let database = await openPostgresDatabase(url);
        await database.pool.query(ROLL_BACK_004);
        await database.pool.query(`
          DROP TRIGGER chat_messages_count_added ON chat_messages; DROP TRIGGER chat_messages_count_removed ON chat_messages;
          DROP FUNCTION chat_messages_count_added(); DROP FUNCTION chat_messages_count_removed();
          ALTER TABLE sessions DROP COLUMN message_count;
          DELETE FROM kysely_migration WHERE name = '003-session-message-count';
          INSERT INTO sessions (id, label, user_id, created_at) VALUES ('s1', 'l', 'u1', 'x'), ('s2', 'l', 'u1', 'x');
          INSERT INTO chat_messages (id, session_id, role, content, created_at)
            VALUES ('m1', 's1', 'user', 'q', 'x'), ('m2', 's1', 'assistant', 'a', 'x'), ('m3', 's1', 'user', 'q', 'x');`);
        await database.close();
        database = await openPostgresDatabase(url);
        const chats = new KyselyChatRepo(database.db, database.reads.db);
        expect((await chats.ownedPage('s1', 'u1', 0, 20))!.total).to.equal(3);
        expect((await chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(0);
        const at = '2026-01-01T00:00:00.000Z';
        await chats.appendExchange({ id: 'm4', sessionId: 's2', role: 'user', content: 'q', createdAt: at }, { id: 'm5', sessionId: 's2', role: 'assistant', content: 'a', createdAt: at });
        expect((await chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(2);
        // One statement deleting several sessions' messages takes each session's own share off.
        await database.pool.query("DELETE FROM chat_messages WHERE id IN ('m1', 'm4')");
        expect([(await chats.ownedPage('s1', 'u1', 0, 20))!.total, (await chats.ownedPage('s2', 'u1', 0, 20))!.total]).to.deep.equal([2, 1]);
        await database.close();
      } finally {
        await cluster.dropDatabase(url);
      }
    });

    it('migration 007 adds unit labels to the jobs an older version stored, which then keep them', async () => {
      await withJobBeforeMigration('unit_labels', ROLL_BACK_007, expectJobBeforeUnitsTakesThem);
    });

    it('migration 004 adds checkpoints to the jobs an older version stored, which then keep one', async () => {
      await withJobBeforeMigration('ingest_checkpoints', ROLL_BACK_004, expectJobBeforeCheckpointsTakesOne);
    });
  });
});

/** Migrations 008 and 007 undone: the schema before mail attachments and unit labels. */
const ROLL_BACK_007 = `
  ALTER TABLE ingest_jobs DROP COLUMN attached_to;
  DELETE FROM kysely_migration WHERE name = '008-mail-attachments';
  ALTER TABLE ingest_jobs DROP COLUMN units_json;
  DELETE FROM kysely_migration WHERE name = '007-unit-labels';`;

/** Migrations 008 to 005 undone, so that an older one can be rolled back (kysely applies migrations in order only). */
const ROLL_BACK_005 = `${ROLL_BACK_007}
  ALTER TABLE ingest_jobs DROP COLUMN kind;
  DELETE FROM kysely_migration WHERE name = '006-document-kind';
  DROP INDEX ingest_jobs_by_user_content, sessions_search, chat_messages_search;
  ALTER TABLE ingest_jobs DROP COLUMN copied_from;
  DELETE FROM kysely_migration WHERE name = '005-document-library-and-record-search';`;

/** The schema as it was before migration 004 (a later migration must be rolled back before an earlier one). */
const ROLL_BACK_004 = `${ROLL_BACK_005}
  ALTER TABLE ingest_jobs DROP COLUMN checkpoint_json, DROP COLUMN reading_page, DROP COLUMN died_on_page;
  DELETE FROM kysely_migration WHERE name = '004-ingest-checkpoints';`;

/**
 * A database rolled back by `rollBack` to before a migration, holding a job as a version then stored it, opened again
 * (the migrations applied): `check` sees that job through the repository.
 */
async function withJobBeforeMigration(name: string, rollBack: string, check: (jobs: KyselyIngestJobRepo) => Promise<void>): Promise<void> {
  const cluster = sharedPostgresCluster();
  const url = await cluster.createDatabase(name);
  try {
    let database = await openPostgresDatabase(url);
    await database.pool.query(rollBack);
    await database.pool.query(JOB_BEFORE_CHECKPOINTS);
    await database.close();
    database = await openPostgresDatabase(url);
    await check(new KyselyIngestJobRepo(database.db));
    await database.close();
  } finally {
    await cluster.dropDatabase(url);
  }
}
