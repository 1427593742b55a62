import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { KyselyChatRepo } from '../../adapters/kysely/kysely-chat-repo.js';
import { KyselyIngestJobRepo } from '../../adapters/kysely/kysely-ingest-job-repo.js';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { openSqliteDatabase, sql } from '../../adapters/sqlite/database.js';
import { SqliteSessionEraser } from '../../adapters/sqlite/sqlite-session-eraser.js';
import { SqliteUploadRepo } from '../../adapters/sqlite/sqlite-upload-repo.js';
import { SqliteChatRepo } from '../../adapters/sqlite/sqlite-chat-repo.js';
import { expectJobBeforeCheckpointsTakesOne, expectJobBeforeUnitsTakesThem, JOB_BEFORE_CHECKPOINTS, repoContract } from './repos.contract.js';

repoContract('SQLite on a temp file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repos-'));
  const database = openSqliteDatabase(path.join(dir, 'test.sqlite'));
  return {
    sessions: new KyselySessionRepo(database.db),
    // The service's chat repository on SQLite: kysely's, history pages read on the connection directly.
    chats: new SqliteChatRepo(database),
    jobs: new KyselyIngestJobRepo(database.db),
    uploads: new SqliteUploadRepo(database),
    eraser: new SqliteSessionEraser(database),
    // Fails the transaction after the messages are deleted: the rollback must bring them back.
    breakEraser: () => {
      database.raw.exec("CREATE TEMP TRIGGER break_eraser BEFORE DELETE ON ingest_jobs BEGIN SELECT RAISE(FAIL, 'injected failure'); END");
      return () => database.raw.exec('DROP TRIGGER break_eraser');
    },
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite database', () => {
  it('answers correctly through its statement cache, past the number of statements it keeps', async () => {
    const database = openSqliteDatabase(':memory:');
    try {
      // 300 distinct statements (more than the cache holds), then the first ones again after their eviction.
      for (const round of [0, 1]) {
        for (let i = 0; i < 300; i += round ? 37 : 1) {
          const { rows } = await sql<{ n: number }>`SELECT ${sql.raw(String(i))} + ${round} AS n`.execute(database.db);
          expect(rows[0].n).to.equal(i + round);
        }
      }
    } finally {
      await database.close();
    }
  });

  it('gives kysely the rows better-sqlite3 would build: names in column order, a later duplicate name winning, every type', async () => {
    const database = openSqliteDatabase(':memory:');
    try {
      const sessions = new KyselySessionRepo(database.db);
      await sessions.create({ id: 's1', label: 'first', userId: 'u', createdAt: '2026-01-01T00:00:00.000Z' });
      await sessions.create({ id: 's2', label: 'second', userId: 'u', createdAt: '2026-01-02T00:00:00.000Z' });
      const query = sql<Record<string, unknown>>`SELECT s.*, 'x' AS "2", s.label AS id, NULL AS missing, 1.5 AS real,
        x'00ff' AS blob, ${'echo'} AS echoed FROM sessions AS s WHERE s.user_id = ${'u'} ORDER BY s.id`;
      const { sql: text, parameters } = query.compile(database.db);
      const expected = database.raw.prepare(text).all(...parameters) as Record<string, unknown>[];
      const { rows } = await query.execute(database.db);
      expect(rows).to.have.length(2);
      expect(rows).to.deep.equal(expected);
      expect(rows.map((row) => Object.keys(row))).to.deep.equal(expected.map((row) => Object.keys(row)));
      expect(rows[0]).to.include({ id: 'first', missing: null, real: 1.5 }); // the later "id" won
      const streamed: unknown[] = [];
      for await (const row of database.db.selectFrom('sessions').select(['label', 'id']).orderBy('id').stream()) streamed.push(row);
      expect(streamed).to.deep.equal([{ label: 'first', id: 's1' }, { label: 'second', id: 's2' }]);
      const renamed = await sessions.rename('s2', 'renamed'); // UPDATE … RETURNING: a reader statement that writes
      expect(renamed).to.include({ id: 's2', label: 'renamed' });
      expect(await sessions.delete('s1')).to.equal(true); // a plain write: run(), its change count
      expect(await sessions.delete('s1')).to.equal(false);
    } finally {
      await database.close();
    }
  });

  it('creates the database, its WAL and shared memory owner-only, in an owner-only folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-modes-'));
    try {
      const database = openSqliteDatabase(path.join(dir, 'data', 'x.sqlite'));
      await new KyselySessionRepo(database.db).create({ id: 's', label: 'l', userId: 'u', createdAt: '2026-01-01T00:00:00.000Z' });
      for (const file of ['x.sqlite', 'x.sqlite-wal', 'x.sqlite-shm']) {
        expect(fs.statSync(path.join(dir, 'data', file)).mode & 0o777, file).to.equal(0o600);
      }
      expect(fs.statSync(path.join(dir, 'data')).mode & 0o777).to.equal(0o700);
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses WAL, applies migrations once, and keeps data across reopen', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-'));
    const file = path.join(dir, 'x.sqlite');
    try {
      let database = openSqliteDatabase(file);
      expect(database.raw.pragma('journal_mode', { simple: true })).to.equal('wal');
      await new KyselySessionRepo(database.db).create({ id: 's', label: 'l', userId: 'u', createdAt: '2026-01-01T00:00:00.000Z' });
      await database.close();
      database = openSqliteDatabase(file);
      expect(await new KyselySessionRepo(database.db).findById('s')).to.include({ label: 'l' });
      const migrations = database.raw.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number };
      expect(migrations.n).to.be.greaterThan(0);
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 005 fails the younger of duplicate active jobs an older version left, then enforces one per key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-'));
    const file = path.join(dir, 'x.sqlite');
    try {
      // Roll the schema back to before migration 005 and store what an older version allowed.
      let database = openSqliteDatabase(file);
      database.raw.exec(`
        DROP INDEX ingest_jobs_one_active_per_key;
        ALTER TABLE ingest_jobs DROP COLUMN attempts;
        ALTER TABLE ingest_jobs DROP COLUMN ocr_skipped_pages;
        DELETE FROM schema_migrations WHERE id = '005-ingest-attempts-and-active-key';
      `);
      const insert = database.raw.prepare(`INSERT INTO ingest_jobs (id, user_id, session_id, blob_key, filename, content_type, tags_json,
        status, created_at, updated_at) VALUES (?, 'u1', 's1', ?, 'f.pdf', 'application/pdf', '{}', ?, ?, ?)`);
      insert.run('older', 'u1/a.pdf', 'processing', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.000Z');
      insert.run('younger', 'u1/a.pdf', 'queued', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:02.000Z');
      insert.run('other-key', 'u1/b.pdf', 'queued', '2026-01-01T00:00:03.000Z', '2026-01-01T00:00:03.000Z');
      await database.close();
      database = openSqliteDatabase(file);
      const jobs = new KyselyIngestJobRepo(database.db);
      expect(await jobs.findById('older')).to.include({ status: 'processing' }).and.not.have.property('attempts');
      expect(await jobs.findById('younger')).to.include({ status: 'failed', error: 'Another ingest job for the same file was already queued or processing' });
      expect(await jobs.findById('other-key')).to.include({ status: 'queued' });
      expect((await jobs.findActiveByKey('u1', 'u1/a.pdf'))?.id).to.equal('older');
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 012 adds unit labels to the jobs an older version stored, which then keep them', async () => {
    await withJobBeforeMigration(`
      ALTER TABLE ingest_jobs DROP COLUMN units_json;
      DELETE FROM schema_migrations WHERE id = '012-unit-labels';
    `, expectJobBeforeUnitsTakesThem);
  });

  it('migration 009 adds checkpoints to the jobs an older version stored, which then keep one', async () => {
    await withJobBeforeMigration(`
      ALTER TABLE ingest_jobs DROP COLUMN checkpoint_json;
      ALTER TABLE ingest_jobs DROP COLUMN reading_page;
      ALTER TABLE ingest_jobs DROP COLUMN died_on_page;
      DELETE FROM schema_migrations WHERE id = '009-ingest-checkpoints';
    `, expectJobBeforeCheckpointsTakesOne);
  });

  it('migration 006 counts the messages an older version stored, then triggers keep the count', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-'));
    const file = path.join(dir, 'x.sqlite');
    try {
      // Roll the schema back to before migration 006 and store messages as an older version did.
      let database = openSqliteDatabase(file);
      database.raw.exec(`
        DROP TRIGGER chat_messages_count_added;
        DROP TRIGGER chat_messages_count_removed;
        ALTER TABLE sessions DROP COLUMN message_count;
        DELETE FROM schema_migrations WHERE id = '006-session-message-count';
        INSERT INTO sessions (id, label, user_id, created_at) VALUES ('s1', 'l', 'u1', 'x'), ('s2', 'l', 'u1', 'x');
        INSERT INTO chat_messages (id, session_id, role, content, created_at)
          VALUES ('m1', 's1', 'user', 'q', 'x'), ('m2', 's1', 'assistant', 'a', 'x'), ('m3', 's1', 'user', 'q', 'x');
      `);
      await database.close();
      database = openSqliteDatabase(file);
      const chats = new KyselyChatRepo(database.db);
      expect((await chats.ownedPage('s1', 'u1', 0, 20))!.total).to.equal(3);
      expect((await chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(0);
      const at = '2026-01-01T00:00:00.000Z';
      await chats.appendExchange({ id: 'm4', sessionId: 's2', role: 'user', content: 'q', createdAt: at }, { id: 'm5', sessionId: 's2', role: 'assistant', content: 'a', createdAt: at });
      expect((await chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(2);
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads sources an older version stored, without `cited`, as cited (they were all shown as the answer\'s)', async () => {
    const database = openSqliteDatabase(':memory:');
    try {
      const older = JSON.stringify([{ filename: 'a.pdf', page: 2, excerpt: 'x', score: 0.5, ingestId: 'j1' }]);
      const newer = JSON.stringify([{ filename: 'b.pdf', page: 3, excerpt: 'y', score: 0.25, ingestId: 'j2', cited: false }]);
      database.raw.exec("INSERT INTO sessions (id, label, user_id, created_at) VALUES ('s1', 'l', 'u1', 'x')");
      const insert = database.raw.prepare("INSERT INTO chat_messages (id, session_id, role, content, created_at, sources_json) VALUES (?, 's1', 'assistant', 'a', 'x', ?)");
      insert.run('m1', older);
      insert.run('m2', newer);
      const [first, second] = await new KyselyChatRepo(database.db).page('s1', 0, 20);
      expect(first.sources).to.deep.equal([{ filename: 'a.pdf', page: 2, excerpt: 'x', score: 0.5, ingestId: 'j1', cited: true }]);
      expect(second.sources).to.deep.equal([{ filename: 'b.pdf', page: 3, excerpt: 'y', score: 0.25, ingestId: 'j2', cited: false }]);
    } finally {
      await database.close();
    }
  });

  it('pages history with the session index, not a table scan', () => {
    const database = openSqliteDatabase(':memory:');
    const plan = database.raw
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM chat_messages WHERE session_id = 's' ORDER BY seq LIMIT 20 OFFSET 40")
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).to.match(/USING INDEX chat_messages_by_session/);
    void database.close();
  });
});

/**
 * A database rolled back by `rollBack` to before a migration, holding a job as a version then stored it, opened again
 * (the migration applied): `check` sees that job through the repository.
 */
async function withJobBeforeMigration(rollBack: string, check: (jobs: KyselyIngestJobRepo) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-'));
  const file = path.join(dir, 'x.sqlite');
  try {
    let database = openSqliteDatabase(file);
    database.raw.exec(rollBack);
    database.raw.prepare(JOB_BEFORE_CHECKPOINTS).run();
    await database.close();
    database = openSqliteDatabase(file);
    await check(new KyselyIngestJobRepo(database.db));
    await database.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
