import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../adapters/sqlite/database.js';
import { SqliteUploadRepo } from '../../adapters/sqlite/sqlite-upload-repo.js';
import { uploadRepoContract } from './upload-repo.contract.js';

uploadRepoContract('SQLite on a temp file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-'));
  const database = openSqliteDatabase(path.join(dir, 'test.sqlite'));
  return {
    uploads: new SqliteUploadRepo(database),
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite upload records', () => {
  it('are carried over from the jobs of a database made before they existed: first job’s user, ingested', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-migrate-'));
    const file = path.join(dir, 'old.sqlite');
    try {
      let database = openSqliteDatabase(file);
      const raw = database.raw;
      // Back to the schema before migration 004, with jobs written then.
      raw.exec("DROP TABLE uploads; DROP INDEX ingest_jobs_by_key; DELETE FROM schema_migrations WHERE id = '004-upload-records'");
      const insert = raw.prepare(`INSERT INTO ingest_jobs (id, user_id, session_id, blob_key, filename, content_type, tags_json, status, created_at, updated_at)
                                  VALUES (?, ?, ?, ?, 'f.pdf', 'application/pdf', '{}', 'completed', ?, ?)`);
      insert.run('j2', 'intruder', 's2', 'owner/k.pdf', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      insert.run('j1', 'owner', 's1', 'owner/k.pdf', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      await database.close();
      database = openSqliteDatabase(file);
      expect(await new SqliteUploadRepo(database).findByKey('owner/k.pdf')).to.deep.equal({
        key: 'owner/k.pdf', userId: 'owner', contentType: 'application/pdf', declaredSize: 0,
        issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:00:00.000Z', ingestedAt: '2026-01-01T00:00:00.000Z',
      });
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
