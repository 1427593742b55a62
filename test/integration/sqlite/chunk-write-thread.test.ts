import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDatabase, type SqliteDatabase } from '../../../adapters/sqlite/database.js';
import { SqliteDenseIndex } from '../../../adapters/sqlite/sqlite-dense-index.js';
import { SqliteFtsIndex } from '../../../adapters/sqlite/sqlite-fts-index.js';
import type { IndexedChunk } from '../../../core/ports/vector-index.js';
import { HashingEmbedder } from '../../fakes/hashing-embedder.js';

describe('SQLite chunk rows written on a thread of their own', function () {
  this.timeout(20_000);
  let dir: string;
  let database: SqliteDatabase;
  const chunk = (n: number, text = `chunk ${n} of the walrus ledger`): IndexedChunk => ({
    id: `job-1:${n}`, sessionId: 'session-1', jobId: 'job-1', filename: 'f.pdf', page: 1 + n, ordinal: n, text, tags: { institution: 'Acme' },
  });
  const count = () => (database.raw.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-chunk-writer-'));
    database = openSqliteDatabase(path.join(dir, 'doc-chat.db'));
  });
  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a database file has the writer thread; rows it commits are read on the server connection, with their FTS entries', async () => {
    expect(database.chunkWriter, 'a file database writes chunk rows on a thread').to.not.equal(undefined);
    await new SqliteFtsIndex(database).add(Array.from({ length: 45 }, (_, n) => chunk(n)));
    expect(count()).to.equal(45);
    const hits = database.raw.prepare(`SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'walrus'`).get() as { n: number };
    expect(hits.n).to.equal(45);
    const row = database.raw.prepare('SELECT institution, page FROM chunks WHERE id = ?').get('job-1:7') as { institution: string; page: number };
    expect(row).to.deep.equal({ institution: 'Acme', page: 8 });
  });

  it('a dense-index batch on the server connection never fails while the thread writes another document’s chunks (EMBEDDED_DENSE=on, two ingestions)', async () => {
    const embedder = new HashingEmbedder();
    const embedded = (job: string, n: number): IndexedChunk => {
      const text = `chunk ${n} of ${job}: the walrus ledger lists revenue, income and assets `.repeat(8);
      return { ...chunk(n, text), id: `${job}:${n}`, jobId: job, embedding: embedder.embed(text) };
    };
    const lexical = new SqliteFtsIndex(database);
    const dense = new SqliteDenseIndex(database);
    // Document B's chunks go through the thread batch after batch, while document A's dense batches are written on
    // the server connection; each of those reads (is the row there already?) before it writes.
    let lexicalDone = false;
    const writingB = lexical.add(Array.from({ length: 3_000 }, (_, n) => embedded('job-b', n))).finally(() => (lexicalDone = true));
    let batches = 0;
    for (let next = 0; !lexicalDone; next += 16, batches++) {
      await dense.add(Array.from({ length: 16 }, (_, k) => embedded('job-a', next + k)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writingB;
    expect(batches, 'dense batches written while the thread wrote').to.be.greaterThan(10);
    expect(await dense.count({ jobId: 'job-a' })).to.equal(batches * 16);
    expect(await lexical.count({ jobId: 'job-b' })).to.equal(3_000);
  });

  it('a write whose signal is aborted before it holds the write lock writes nothing and says so', async () => {
    const stop = new AbortController();
    stop.abort();
    const rows = [{ id: 'job-1:0', session_id: 'session-1', job_id: 'job-1', filename: 'f.pdf', page: 1, ordinal: 0, text: 'x', tags_json: '{}', institution: null }];
    expect(await database.chunkWriter!.write(rows, stop.signal)).to.equal(false);
    expect(count()).to.equal(0);
    expect(await database.chunkWriter!.write(rows)).to.equal(true);
    expect(count()).to.equal(1);
  });

  it('a session deleted while batches are in flight keeps none of them: each commits before the DELETE or not at all', async () => {
    const index = new SqliteFtsIndex(database);
    const stop = new AbortController();
    const adding = index.add(Array.from({ length: 2_000 }, (_, n) => chunk(n, `walrus ${n} `.repeat(40))), stop.signal);
    // Let some batches commit, then do what DeleteSession does: cancel (the run's signal), then delete.
    while (count() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    stop.abort(new Error('cancelled'));
    await index.deleteBySession('session-1');
    let thrown: unknown;
    await adding.catch((error) => (thrown = error));
    expect((thrown as Error | undefined)?.message).to.equal('cancelled');
    expect(count(), 'rows written after the deletion').to.equal(0);
  });

  it('runs a thread only while there is writing: the first write starts it, idleMs without one stops it, the next starts another', async () => {
    await database.close();
    database = openSqliteDatabase(path.join(dir, 'doc-chat.db'), { idleMs: 200 });
    const writer = database.chunkWriter!;
    expect(writer.running, 'a thread before any write').to.equal(false);
    const index = new SqliteFtsIndex(database);
    await index.add([chunk(1)]);
    expect([writer.running, writer.started]).to.deep.equal([true, 1]);
    for (const deadline = Date.now() + 5_000; writer.running; await new Promise((resolve) => setTimeout(resolve, 20))) {
      expect(Date.now(), 'the idle thread never stopped').to.be.below(deadline);
    }
    await index.add([chunk(2), chunk(3)]);
    expect(writer.started, 'a write after the stop starts a new thread').to.equal(2);
    expect(count()).to.equal(3);
  });

  it('a write to a closed writer is refused with a clear error, not lost silently', async () => {
    await database.chunkWriter!.close();
    let thrown: unknown;
    await database.chunkWriter!.write([]).catch((error) => (thrown = error));
    expect((thrown as Error | undefined)?.message).to.match(/chunk writer thread/);
  });
});
