import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openSqliteDatabase, type SqliteDatabase } from '../../adapters/sqlite/database.js';
import { SqliteDenseIndex } from '../../adapters/sqlite/sqlite-dense-index.js';
import { SqliteFtsIndex } from '../../adapters/sqlite/sqlite-fts-index.js';
import type { Chunk } from '../../core/domain/model.js';
import type { IndexedChunk, VectorIndex } from '../../core/ports/vector-index.js';
import { HashingEmbedder } from '../fakes/hashing-embedder.js';
import { vectorIndexContract } from './vector-index.contract.js';

function tempDatabase(): { database: SqliteDatabase; cleanup(): Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dense-index-'));
  const database = openSqliteDatabase(path.join(dir, 'test.db'));
  return {
    database,
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

vectorIndexContract('SqliteDenseIndex (temp-file database)', async () => {
  const { database, cleanup } = tempDatabase();
  return { index: new SqliteDenseIndex(database), cleanup };
});

describe('SqliteDenseIndex specifics', function () {
  const embedder = new HashingEmbedder();
  let db: ReturnType<typeof tempDatabase>;
  let dense: SqliteDenseIndex;

  const chunk = (id: string, text: string, extra: Partial<Chunk> = {}): IndexedChunk => ({
    id, sessionId: 's-1', jobId: 'j-1', filename: 'a.pdf', page: 1, ordinal: 0, text, tags: {}, ...extra,
    embedding: embedder.embed(text),
  });

  beforeEach(() => {
    db = tempDatabase();
    dense = new SqliteDenseIndex(db.database);
  });
  afterEach(() => db.cleanup());

  it('stores each vector L2-normalised as Float32 little-endian', async function () {
    await dense.add([{ ...chunk('c-1', 'anything'), embedding: [3, 4, 0] }]);
    const row = db.database.raw.prepare('SELECT dimensions, vector FROM chunk_vectors WHERE chunk_id = ?').get('c-1') as {
      dimensions: number;
      vector: Buffer;
    };
    expect(row.dimensions).to.equal(3);
    expect(row.vector.length).to.equal(12);
    expect([0, 1, 2].map((i) => row.vector.readFloatLE(i * 4))).to.deep.equal([Math.fround(0.6), Math.fround(0.8), 0]);
  });

  it('rejects a chunk without embedding (or with NaN) before writing anything', async function () {
    for (const bad of [{ ...chunk('c-2', 'b'), embedding: undefined }, { ...chunk('c-2', 'b'), embedding: [1, Number.NaN] }]) {
      let error: unknown;
      try {
        await dense.add([chunk('c-1', 'fine'), bad]);
      } catch (e) {
        error = e;
      }
      expect((error as Error).message).to.match(/embedding/);
      expect(await dense.count({})).to.equal(0);
    }
  });

  it('skips vectors of another dimension (another embedding model) instead of throwing', async function () {
    await dense.add([chunk('c-1', 'walrus colony'), { ...chunk('c-2', 'walrus colony'), embedding: [1, 0, 0] }]);
    const hits = await dense.search({ sessionId: 's-1', text: 'walrus', embedding: embedder.embed('walrus'), limit: 5 });
    expect(hits.map((h) => h.chunk.id)).to.deep.equal(['c-1']);
  });

  it('scores are cosine similarities, whatever the query vector’s length', async function () {
    await dense.add([{ ...chunk('c-1', 'x'), embedding: [1, 0] }, { ...chunk('c-2', 'y'), embedding: [1, 1] }]);
    const hits = await dense.search({ sessionId: 's-1', text: '', embedding: [10, 0], limit: 5 });
    expect(hits.map((h) => h.chunk.id)).to.deep.equal(['c-1', 'c-2']);
    expect(hits[0].score).to.be.closeTo(1, 1e-6);
    expect(hits[1].score).to.be.closeTo(Math.SQRT1_2, 1e-6);
  });

  it('searches 10 000 vectors of 768 dimensions in well under a second (brute force)', async function () {
    this.timeout(60_000);
    const dimensions = 768;
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5;
    for (let b = 0; b < 10_000; b += 2_000) {
      const batch: IndexedChunk[] = [];
      for (let i = b; i < b + 2_000; i++) {
        batch.push({
          id: `big:${i}`, sessionId: 's-big', jobId: 'big', filename: 'big.pdf', page: 1 + (i >> 2), ordinal: i,
          text: `chunk ${i}`, tags: {}, embedding: Array.from({ length: dimensions }, random),
        });
      }
      await dense.add(batch);
    }
    const times: number[] = [];
    for (let r = 0; r < 5; r++) {
      const embedding = Array.from({ length: dimensions }, random);
      const started = performance.now();
      const hits = await dense.search({ sessionId: 's-big', text: '', embedding, limit: 40 });
      times.push(performance.now() - started);
      expect(hits).to.have.length(40);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).to.be.at.least(hits[i].score);
    }
    times.sort((a, b) => a - b);
    console.log(`      10k × 768 query: median ${times[2].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)})`);
    expect(times[2]).to.be.below(1_000);
  });

  describe('next to SqliteFtsIndex on the same database (shared chunk rows)', function () {
    let fts: SqliteFtsIndex;
    const texts = [
      'Report: the mitochondria produce energy through aerobic respiration.',
      'Report: alpine glaciers retreat as summers get warmer.',
      'Report: basalt lava spreads across the volcanic island.',
    ];
    const otherTexts = [
      'Report: penguins huddle through the antarctic winter.',
      'Report: glaciers of greenland calve icebergs into fjords and retreat inland.',
      'Report: saxophone quartets rehearse jazz standards.',
    ];
    const job = (jobId: string) => (jobId === 'j-2' ? otherTexts : texts).map((t, i) => chunk(`${jobId}:${i}`, t, { jobId, ordinal: i, tags: { institution: 'Acme' } }));
    const rowCount = () => (db.database.raw.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    const ftsRows = () => (db.database.raw.prepare('SELECT count(*) AS n FROM chunks_fts').get() as { n: number }).n;
    /** What run-ingestion does: for each index, drop the job's chunks, then add them. */
    async function ingest(indexes: VectorIndex[], chunks: IndexedChunk[]) {
      for (const index of indexes) {
        await index.deleteByJob(chunks[0].jobId);
        await index.add(chunks);
      }
    }
    async function bothFind(expectedId: string) {
      const text = 'glaciers retreat';
      const lexical = await fts.search({ sessionId: 's-1', text, limit: 3 });
      const denseHits = await dense.search({ sessionId: 's-1', text, embedding: embedder.embed(text), limit: 3 });
      expect(lexical[0].chunk.id).to.equal(expectedId);
      expect(denseHits[0].chunk.id).to.equal(expectedId);
      expect(denseHits[0].chunk).to.deep.equal(lexical[0].chunk);
    }

    beforeEach(() => {
      fts = new SqliteFtsIndex(db.database);
    });

    for (const order of ['lexical first', 'dense first'] as const) {
      it(`ingestion with the ${order} keeps one chunk row per chunk and both indexes answering`, async function () {
        const indexes = order === 'lexical first' ? [fts, dense] : [dense, fts];
        await ingest(indexes, job('j-1'));
        await ingest(indexes, job('j-2'));
        await ingest(indexes, job('j-1')); // a re-run of a job
        expect(rowCount()).to.equal(6);
        expect(ftsRows()).to.equal(6);
        expect(await fts.count({ sessionId: 's-1' })).to.equal(6);
        expect(await dense.count({ sessionId: 's-1' })).to.equal(6);
        await bothFind('j-1:1');

        for (const index of indexes) await index.deleteByJob('j-1');
        expect(rowCount()).to.equal(3);
        const left = await dense.search({ sessionId: 's-1', text: '', embedding: embedder.embed('glaciers'), limit: 5 });
        expect(left.map((h) => h.chunk.jobId)).to.deep.equal(['j-2', 'j-2', 'j-2']);
        expect((await fts.search({ sessionId: 's-1', text: 'glaciers', limit: 5 })).map((h) => h.chunk.id)).to.deep.equal(['j-2:1']);
        for (const index of indexes) await index.deleteBySession('s-1');
        expect(rowCount()).to.equal(0);
        expect(ftsRows()).to.equal(0);
        expect(await dense.count({})).to.equal(0);
      });
    }

    it('dense.add leaves an identical chunk row that SqliteFtsIndex wrote untouched', async function () {
      const chunks = job('j-1');
      await fts.add(chunks);
      const rowids = db.database.raw.prepare('SELECT rowid FROM chunks ORDER BY id').all();
      await dense.add(chunks);
      expect(db.database.raw.prepare('SELECT rowid FROM chunks ORDER BY id').all()).to.deep.equal(rowids);
    });

    it('a vector whose chunk row SqliteFtsIndex removed is skipped, not an error', async function () {
      await ingest([fts, dense], job('j-1'));
      await fts.deleteByJob('j-1');
      const hits = await dense.search({ sessionId: 's-1', text: '', embedding: embedder.embed('glaciers'), limit: 3 });
      expect(hits).to.deep.equal([]);
    });
  });
});
