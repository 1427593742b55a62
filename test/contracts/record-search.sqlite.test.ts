import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { MIGRATIONS, openSqliteDatabase } from '../../adapters/sqlite/database.js';
import { SqliteChatRepo } from '../../adapters/sqlite/sqlite-chat-repo.js';
import { SqliteRecordSearch } from '../../adapters/sqlite/sqlite-record-search.js';
import { recordSearchContract } from './record-search.contract.js';

recordSearchContract('SQLite FTS5 on a temp file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-search-'));
  const database = openSqliteDatabase(path.join(dir, 'test.sqlite'));
  return {
    sessions: new KyselySessionRepo(database.db),
    chats: new SqliteChatRepo(database),
    search: new SqliteRecordSearch(database),
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite record search migration', () => {
  it('indexes the sessions and messages an older version stored', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-search-migration-'));
    const file = path.join(dir, 'test.sqlite');
    try {
      // The schema as it was before migration 010 (and the later 011 to 013), with records in it.
      let database = openSqliteDatabase(file);
      database.raw.exec(`
        DROP TRIGGER sessions_fts_added; DROP TRIGGER sessions_fts_renamed; DROP TRIGGER sessions_fts_removed; DROP TABLE sessions_fts;
        DROP TRIGGER chat_messages_fts_added; DROP TRIGGER chat_messages_fts_removed; DROP TRIGGER chat_messages_fts_changed;
        DROP TABLE chat_messages_fts; DROP INDEX ingest_jobs_by_user_content; ALTER TABLE ingest_jobs DROP COLUMN copied_from;
        ALTER TABLE ingest_jobs DROP COLUMN kind; ALTER TABLE ingest_jobs DROP COLUMN units_json; ALTER TABLE ingest_jobs DROP COLUMN attached_to;
        DELETE FROM schema_migrations WHERE id >= '010';
        INSERT INTO sessions (id, label, user_id, created_at) VALUES ('s1', 'Old budget', 'u1', 'x');
        INSERT INTO chat_messages (id, session_id, role, content, created_at) VALUES ('m1', 's1', 'user', 'the old forecast', 'x');`);
      await database.close();
      database = openSqliteDatabase(file);
      const found = await new SqliteRecordSearch(database).search({ userId: 'u1', text: 'budget', limit: 5 });
      expect(found.sessions.map((m) => m.sessionId)).to.deep.equal(['s1']);
      const messages = await new SqliteRecordSearch(database).search({ userId: 'u1', text: 'forecasts', limit: 5 });
      expect(messages.messages.map((m) => m.messageId)).to.deep.equal(['m1']);
      expect(MIGRATIONS.some((m) => m.id.startsWith('010-'))).to.equal(true);
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
