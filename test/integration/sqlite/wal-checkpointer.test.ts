import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openSqliteDatabase } from '../../../adapters/sqlite/database.js';

describe('SQLite write-ahead log checkpoints (a thread of their own)', function () {
  this.timeout(20_000);
  let dir: string;

  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-wal-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs no thread for a log already copied, one while writes are new, and another for later writes', async () => {
    const file = path.join(dir, 'doc-chat.db');
    const database = openSqliteDatabase(file, { idleMs: 300, checkpointEveryMs: 50 });
    const checkpointer = database.checkpointer!;
    const until = async (what: string, done: () => boolean) => {
      for (const deadline = Date.now() + 8_000; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
        expect(Date.now(), what).to.be.below(deadline);
      }
    };
    try {
      // What the migrations wrote was copied at open: an idle database has no thread.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect([checkpointer.running, checkpointer.started], 'a thread for a log already copied').to.deep.equal([false, 0]);
      const before = fs.statSync(file).size;
      database.raw.exec('CREATE TABLE filler (body TEXT)');
      const insert = database.raw.prepare('INSERT INTO filler (body) VALUES (?)');
      database.raw.transaction(() => {
        for (let i = 0; i < 1_000; i++) insert.run(`${i} ${'x'.repeat(4_000)}`);
      })();
      await until('the later writes never reached the database file', () => fs.statSync(file).size >= before + 3_500_000);
      expect(checkpointer.started, 'the writes started a thread').to.equal(1);
      await until('the thread never stopped', () => !checkpointer.running);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(checkpointer.started, 'a thread started again for a log it left copied').to.equal(1);
      database.raw.prepare('INSERT INTO filler (body) VALUES (?)').run('one more');
      await until('a later write started no thread', () => checkpointer.started === 2);
      await until('the second thread never stopped', () => !checkpointer.running);
    } finally {
      await database.close();
    }
  });

  it('copies committed writes into the database file while the server connection only writes', async () => {
    const file = path.join(dir, 'doc-chat.db');
    const database = openSqliteDatabase(file);
    try {
      expect(database.raw.pragma('wal_autocheckpoint', { simple: true }), 'commits never checkpoint').to.equal(0);
      const before = fs.statSync(file).size;
      database.raw.exec('CREATE TABLE filler (body TEXT)');
      const insert = database.raw.prepare('INSERT INTO filler (body) VALUES (?)');
      database.raw.transaction(() => {
        for (let i = 0; i < 2_000; i++) insert.run(`${i} ${'x'.repeat(4_000)}`);
      })();
      // ~8 MB went to the log; only the checkpoint thread can move it into the file.
      for (const deadline = Date.now() + 10_000; fs.statSync(file).size < before + 7_000_000; ) {
        expect(Date.now(), 'the database file never received the logged writes').to.be.below(deadline);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((database.raw.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).to.equal(2_000);
    } finally {
      await database.close();
    }
    // Closed: the thread is gone with the connection, and the file opens again with everything in it.
    const again = openSqliteDatabase(file);
    try {
      expect((again.raw.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).to.equal(2_000);
    } finally {
      await again.close();
    }
  });

  it('empties the log on request (a deletion on a full disk), and leaves it without waiting while a reader holds it', async () => {
    const file = path.join(dir, 'doc-chat.db');
    // A checkpoint thread that never starts within the test: only truncateLog empties the log.
    const database = openSqliteDatabase(file, { checkpointEveryMs: 600_000 });
    const reader = new BetterSqlite3(file, { readonly: true });
    try {
      database.raw.exec('CREATE TABLE filler (body TEXT)');
      database.raw.prepare('INSERT INTO filler (body) VALUES (?)').run('x'.repeat(100_000));
      const logSize = () => fs.statSync(`${file}-wal`).size;
      expect(logSize()).to.be.above(100_000);
      // A reader in the middle of a read holds the log: the truncation gives up after its few tries, well within a second.
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT count(*) FROM filler').get();
      const started = Date.now();
      expect(await database.truncateLog()).to.equal(false);
      expect(Date.now() - started).to.be.below(2_000);
      expect(logSize()).to.be.above(100_000);
      reader.prepare('COMMIT').run();
      expect(await database.truncateLog()).to.equal(true);
      expect(logSize()).to.equal(0);
      expect(database.raw.pragma('busy_timeout', { simple: true }), 'the wait for locks is as it was').to.equal(5_000);
      expect((database.raw.prepare('SELECT length(body) AS n FROM filler').get() as { n: number }).n).to.equal(100_000);
    } finally {
      reader.close();
      await database.close();
    }
  });
});
