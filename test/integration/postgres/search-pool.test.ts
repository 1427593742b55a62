import { expect } from 'chai';
import type pg from 'pg';
import type { Chunk } from '../../../core/domain/model.js';
import { KyselyChatRepo } from '../../../adapters/kysely/kysely-chat-repo.js';
import { KyselySessionRepo } from '../../../adapters/kysely/kysely-session-repo.js';
import { openPostgresDatabase, type PostgresDatabase } from '../../../adapters/postgres/database.js';
import { PostgresLexicalIndex, queryTerms } from '../../../adapters/postgres/postgres-lexical-index.js';
import { describeWithPostgres, sharedPostgresCluster } from '../../support/postgres-cluster.js';

/**
 * Issue 19 on PostgreSQL: questions' searches run on a pool of their own, so a history page never waits for a
 * connection behind them (and a burst of searches cannot take every connection); history pages and ownership checks
 * run on another, so they never wait behind questions' record reads and appends either; and the BM25 the search
 * computes in SQL equals BM25 computed here from the stored tsvectors.
 */

const SESSION = 'session-search-pool';
const TEXTS = [
  'Glaciers carve U-shaped valleys as glaciers move downhill under their own weight.',
  'Moraines are ridges of debris a glacier leaves behind when the ice retreats.',
  'Ice ages alternate with warmer interglacial periods over thousands of years.',
  'Volcanoes erupt basalt lava; the lava cools into new rock on the island.',
  'The glacier museum opens in summer; tickets for the ice cave are sold at the valley station.',
  'Penguins huddle together through the antarctic winter on the sea ice.',
];
const chunks: Chunk[] = TEXTS.map((text, i) => ({
  id: `job-1:${i}`, sessionId: SESSION, jobId: 'job-1', filename: 'ice.pdf', page: i + 1, ordinal: i, text, tags: {},
}));

/** Settles within `ms`? (true) or is still pending (false). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

describeWithPostgres('PostgreSQL: the search pool and the BM25 search', () => describe('PostgresDatabase pools, PostgresLexicalIndex', function () {
  this.timeout(60_000);
  // Asked for when the tests run: loading the file (mocha --dry-run) must not start a server.
  const cluster = () => sharedPostgresCluster();
  let url: string;
  let database: PostgresDatabase;
  let index: PostgresLexicalIndex;
  let chats: KyselyChatRepo;
  let sessions: KyselySessionRepo;
  const held: pg.PoolClient[] = [];

  before(async () => {
    url = await cluster().createDatabase('search_pool');
    // One connection per pool: holding it exhausts the pool.
    database = await openPostgresDatabase(url, { poolSize: 1, searchPoolSize: 1, readPoolSize: 1 });
    index = new PostgresLexicalIndex(database);
    // As the service binds them: writes on the records pool, history reads and ownership checks on the reads pool.
    chats = new KyselyChatRepo(database.db, database.reads.db);
    sessions = new KyselySessionRepo(database.db, database.reads.db);
    await sessions.create({ id: SESSION, label: 'ice', userId: 'u1', createdAt: '2026-01-01T00:00:00.000Z' });
    await index.add(chunks.map((c) => ({ ...c, embedding: [] })));
  });
  afterEach(() => {
    for (const client of held.splice(0)) client.release();
  });
  after(async () => {
    await database.close();
    await cluster().dropDatabase(url);
  });

  it('a history page gets a connection while every search connection is busy; the search waits for its own', async () => {
    const waits: string[] = [];
    database.onConnectionWait((pool) => waits.push(pool));
    held.push(await database.search.pool.connect());
    const search = index.search({ sessionId: SESSION, text: 'glacier valleys', limit: 3 });
    expect(await chats.page(SESSION, 0, 20)).to.deep.equal([]);
    expect(await settlesWithin(search, 200), 'the search got a connection the held one should have blocked').to.equal(false);
    expect(database.search.stats().waiting).to.equal(1);
    held.pop()!.release();
    expect((await search).map((h) => h.chunk.id)[0]).to.equal('job-1:0');
    expect(waits).to.include.members(['reads', 'search']);
  });

  it('a history page and an ownership check get a connection while every records connection is busy; an append waits for its own', async () => {
    const waits: string[] = [];
    database.onConnectionWait((pool) => waits.push(pool));
    held.push(await database.pool.connect());
    const at = '2026-01-01T00:00:01.000Z';
    const append = chats.appendExchange(
      { id: 'q1', sessionId: SESSION, role: 'user', content: 'Where are glaciers?', createdAt: at },
      { id: 'a1', sessionId: SESSION, role: 'assistant', content: 'In valleys.', createdAt: at },
    );
    expect(await sessions.findById(SESSION)).to.include({ userId: 'u1' });
    expect(await chats.ownedPage(SESSION, 'u1', 0, 20)).to.deep.equal({ messages: [], total: 0 });
    expect(await settlesWithin(append, 200), 'the append got a connection the held one should have blocked').to.equal(false);
    expect(database.pools.find((p) => p.name === 'records')!.stats().waiting).to.equal(1);
    // The reads checked out (the ownership row, then the page with its count and ownership) came from `reads` alone.
    expect(waits).to.deep.equal(['reads', 'reads']);
    held.pop()!.release();
    await append;
    const { messages, total } = (await chats.ownedPage(SESSION, 'u1', 0, 20))!;
    expect([messages.map((m) => m.id), total]).to.deep.equal([['q1', 'a1'], 2]);
    // The append's connection, then the page's ids and (its turns being new to the repo) the page whole, from `reads`.
    expect(waits.slice(2)).to.deep.equal(['records', 'reads', 'reads']);
    // Read again: the ids alone, the turns are held by id.
    expect((await chats.ownedPage(SESSION, 'u1', 0, 20))!.messages.map((m) => m.content)).to.deep.equal(['Where are glaciers?', 'In valleys.']);
    expect(waits.slice(5)).to.deep.equal(['reads']);
    await chats.deleteBySession(SESSION);
  });

  it('a search gets a connection while every records connection is busy', async () => {
    held.push(await database.pool.connect());
    const hits = await index.search({ sessionId: SESSION, text: 'moraines debris', limit: 3 });
    expect(hits.map((h) => h.chunk.id)[0]).to.equal('job-1:1');
    expect(database.pools.find((p) => p.name === 'records')!.stats().idle).to.equal(0);
  });

  it('ranks by BM25 (k1 1.2, b 0.75) over the session, as computed here from the stored tsvectors', async () => {
    for (const question of ['Where do glaciers carve valleys?', 'ice', 'What happens to lava on the island in summer?']) {
      const hits = await index.search({ sessionId: SESSION, text: question, limit: 10 });
      const expected = await bm25(database, question);
      expect(hits.map((h) => h.chunk.id), question).to.deep.equal(expected.map((e) => e.id));
      hits.forEach((h, i) => expect(h.score, `${question}: ${h.chunk.id}`).to.be.closeTo(expected[i].score, 1e-9));
    }
  });
}));

/** BM25 of the session's chunks for `question`, from each chunk's tsvector text ('lexeme':1,4 …) and token count. */
async function bm25(database: PostgresDatabase, question: string): Promise<{ id: string; score: number }[]> {
  const terms = queryTerms(question);
  const { rows: [{ lexemes }] } = await database.pool.query<{ lexemes: string[] }>(
    "SELECT tsvector_to_array(to_tsvector('english', $1)) AS lexemes", [terms.join(' ')]);
  const { rows } = await database.pool.query<{ rowid: string; id: string; tsv: string; token_count: number }>(
    'SELECT rowid, id, tsv::text AS tsv, token_count FROM chunks WHERE session_id = $1', [SESSION]);
  const docs = rows.map((r) => {
    const tf = new Map<string, number>();
    for (const [, lexeme, positions] of r.tsv.matchAll(/'((?:[^']|'')*)':([\d,A-D]+)/g)) tf.set(lexeme.replace(/''/g, "'"), positions.split(',').length);
    return { rowid: Number(r.rowid), id: r.id, length: r.token_count, tf };
  });
  const n = docs.length;
  const avgdl = Math.max(docs.reduce((s, d) => s + d.length, 0) / n, 1);
  const candidates = docs.filter((d) => lexemes.some((l) => d.tf.has(l)));
  const df = new Map(lexemes.map((l) => [l, candidates.filter((d) => d.tf.has(l)).length]));
  return candidates
    .map((d) => ({
      rowid: d.rowid, id: d.id,
      score: lexemes.filter((l) => d.tf.has(l)).reduce((s, l) => {
        const tf = d.tf.get(l)!;
        return s + Math.log(1 + (n - df.get(l)! + 0.5) / (df.get(l)! + 0.5)) * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * d.length / avgdl));
      }, 0),
    }))
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}
