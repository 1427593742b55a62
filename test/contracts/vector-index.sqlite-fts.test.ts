import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { MIGRATIONS, openSqliteDatabase } from '../../adapters/sqlite/database.js';
import type { IndexedChunk } from '../../core/ports/vector-index.js';
import { SqliteFtsIndex } from '../../adapters/sqlite/sqlite-fts-index.js';
import { vectorIndexContract } from './vector-index.contract.js';

vectorIndexContract('SqliteFtsIndex (temp-file database)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-index-'));
  const database = openSqliteDatabase(path.join(dir, 'test.db'));
  return {
    index: new SqliteFtsIndex(database),
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

// In memory there is no second connection: rows are written on the server's own thread.
vectorIndexContract('SqliteFtsIndex (in-memory database)', async () => {
  const database = openSqliteDatabase(':memory:');
  return { index: new SqliteFtsIndex(database), cleanup: () => database.close() };
});

describe('SqliteFtsIndex session scope', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-scope-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const chunk = (sessionId: string, n: number, text: string): IndexedChunk => ({
    id: `${sessionId}:${n}`, sessionId, jobId: `job-${sessionId}`, filename: 'f.pdf', page: 1, ordinal: n, text, tags: {},
  });

  it('keeps chunks indexed before the session scope existed searchable, each in its own session only', async () => {
    const file = path.join(dir, 'old.db');
    // A database as the previous release left it: migrations up to 002, with chunks already indexed.
    const raw = new BetterSqlite3(file);
    raw.exec('CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const migration of MIGRATIONS.filter((m) => m.id < '003')) {
      raw.exec(migration.sql);
      raw.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(migration.id, new Date().toISOString());
    }
    const insert = raw.prepare(
      'INSERT INTO chunks (id, session_id, job_id, filename, page, ordinal, text, tags_json) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    );
    insert.run('a:0', 'session-a', 'job-a', 'a.pdf', 0, 'Glaciers carve valleys over thousands of years.', '{}');
    insert.run('b:0', 'session-b', 'job-b', 'b.pdf', 0, 'Glaciers also melt into rivers.', '{}');
    raw.close();

    const database = openSqliteDatabase(file);
    try {
      const index = new SqliteFtsIndex(database);
      const a = await index.search({ sessionId: 'session-a', text: 'glaciers', limit: 5 });
      const b = await index.search({ sessionId: 'session-b', text: 'glaciers', limit: 5 });
      expect(a.map((h) => h.chunk.id)).to.deep.equal(['a:0']);
      expect(b.map((h) => h.chunk.id)).to.deep.equal(['b:0']);
    } finally {
      await database.close();
    }
  });

  it('finds a session’s chunks among many sessions holding the same words, and never returns theirs', async () => {
    const database = openSqliteDatabase(path.join(dir, 'scope.db'));
    try {
      const index = new SqliteFtsIndex(database);
      const mine = [
        chunk('mine', 0, 'The river delta floods every spring.'),
        chunk('mine', 1, 'A delta forms where a river meets the sea, and the river slows.'),
        chunk('mine', 2, 'Mountains rise slowly.'),
      ];
      await index.add(mine);
      // Many other sessions, including ids that share a prefix with ours, hold the same words.
      for (const other of ['mine-2', 'min', 'other', 'xmine']) {
        await index.add(Array.from({ length: 50 }, (_, i) => chunk(other, i, `river delta river delta number ${i}`)));
      }
      const crowded = await index.search({ sessionId: 'mine', text: 'river delta', limit: 10 });
      expect(crowded.map((h) => h.chunk.id)).to.have.members(['mine:0', 'mine:1']);
      expect(crowded.every((h) => h.chunk.sessionId === 'mine')).to.equal(true);
    } finally {
      await database.close();
    }
  });

  it('keeps each session’s chunk count, which its ranking uses, and forgets a session with its last chunk', async () => {
    const database = openSqliteDatabase(path.join(dir, 'counts.db'));
    try {
      const index = new SqliteFtsIndex(database);
      const counts = () => database.raw.prepare('SELECT session_id, chunks FROM chunk_counts ORDER BY session_id').all();
      await index.add([chunk('s1', 0, 'alpha'), chunk('s1', 1, 'beta'), chunk('s2', 0, 'gamma')]);
      await index.add([chunk('s1', 1, 'beta again')]); // replaced, not added
      expect(counts()).to.deep.equal([{ session_id: 's1', chunks: 2 }, { session_id: 's2', chunks: 1 }]);
      await index.deleteBySession('s1');
      expect(counts()).to.deep.equal([{ session_id: 's2', chunks: 1 }]);
      await index.deleteByJob('job-s2');
      expect(counts()).to.deep.equal([]);
    } finally {
      await database.close();
    }
  });

  it('lets other work run between batches while it writes a long document (it never holds the event loop throughout)', async () => {
    const database = openSqliteDatabase(path.join(dir, 'batches.db'));
    try {
      const index = new SqliteFtsIndex(database);
      const many = Array.from({ length: 2000 }, (_, i) => chunk('long', i, `paragraph ${i} of a very long annual report`));
      let ranBeforeTheEnd = false;
      const adding = index.add(many);
      setImmediate(() => (ranBeforeTheEnd = true));
      await adding;
      expect(ranBeforeTheEnd).to.equal(true);
      expect(await index.count({ sessionId: 'long' })).to.equal(2000);
    } finally {
      await database.close();
    }
  });
});
