import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Chunk } from '../../core/domain/model.js';
import type { TagFilter } from '../../core/domain/tags.js';
import type { ChunkHit, IndexQuery, IndexedChunk, VectorIndex } from '../../core/ports/vector-index.js';
import { HashingEmbedder } from '../fakes/hashing-embedder.js';

export interface VectorIndexSubject {
  index: VectorIndex;
  cleanup(): Promise<void>;
}

/**
 * Behaviour every VectorIndex must have, lexical or dense. Every chunk and every query carries an embedding from a
 * HashingEmbedder (feature-hashed words), so a dense index and a lexical one rank by the same thing: shared words.
 * `makeSubject` is called before each test and must give an empty index; `cleanup` is called after it.
 */
export function vectorIndexContract(name: string, makeSubject: () => Promise<VectorIndexSubject>): void {
  describe(`VectorIndex contract: ${name}`, function () {
    const embedder = new HashingEmbedder();
    let subject: VectorIndexSubject | undefined;
    let index: VectorIndex;
    // Fresh ids per test: a subject backed by a shared server must not see another test's data.
    let ids: ReturnType<typeof fixtureIds>;

    beforeEach(async function () {
      ids = fixtureIds();
      subject = await makeSubject();
      index = subject.index;
    });

    afterEach(async function () {
      await subject?.cleanup();
      subject = undefined;
    });

    const institution = (name: string): TagFilter[] => [{ tag: 'institution', values: [name] }];
    const chunk = (c: Chunk): IndexedChunk => ({ ...c, embedding: embedder.embed(c.text) });
    const query = (q: Omit<IndexQuery, 'embedding'>): IndexQuery => ({ ...q, embedding: embedder.embed(q.text) });

    /**
     * Session A: job 1 (three chunks, institution Acme), job 2 (two Globex chunks and one without institution); all
     * but a2 carry a year (2023: a1, a4; 2024: a3, a5, a6).
     * Session B: one chunk with the same text as A's mitochondria chunk, one more. Every text of session A says "report".
     */
    function corpus() {
      const { sessionA, sessionB, job1, job2, job3 } = ids;
      const base = (id: string, sessionId: string, jobId: string, ordinal: number, text: string, tags: Record<string, string>): Chunk => ({
        id, sessionId, jobId, filename: `${jobId}.pdf`, page: ordinal + 1, ordinal, text, tags,
      });
      const acme = { institution: 'Acme Bank' };
      const globex = { institution: 'Globex' };
      const a1 = base(`${job1}:0`, sessionA, job1, 0, 'Report: the mitochondria produce energy for the cell through aerobic respiration.', { ...acme, year: '2023' });
      const a2 = base(`${job1}:1`, sessionA, job1, 1, 'Report on glaciers: alpine glaciers retreat as summer temperatures climb.', acme);
      const a3 = base(`${job1}:2`, sessionA, job1, 2, 'Quarterly report: mortgage interest rates and loan approvals at the branch.', { ...acme, year: '2024' });
      const a4 = base(`${job2}:0`, sessionA, job2, 0, 'Annual report: volcano eruptions spread basalt lava and ash across the island.', { ...globex, year: '2023' });
      const a5 = base(`${job2}:1`, sessionA, job2, 1, 'Report appendix: mortgage interest rates compared across banks and lenders.', { ...globex, year: '2024' });
      const a6 = base(`${job2}:2`, sessionA, job2, 2, 'Report notes: saxophone quartets rehearse jazz standards on thursday.', { year: '2024' });
      const b1 = base(`${job3}:0`, sessionB, job3, 0, a1.text, acme);
      const b2 = base(`${job3}:1`, sessionB, job3, 1, 'Penguins huddle together through the antarctic winter.', {});
      return { a1, a2, a3, a4, a5, a6, b1, b2, sessionA: [a1, a2, a3, a4, a5, a6], sessionB: [b1, b2] };
    }

    async function seed() {
      const c = corpus();
      await index.add([...c.sessionA, ...c.sessionB].map(chunk));
      return c;
    }

    it('gives the opening chunks of each document of the session, by document then ordinal, filtered by tags', async function () {
      const c = await seed();
      const key = (x: Chunk) => [x.jobId, x.ordinal];
      const expected = (chunks: Chunk[]) => chunks.map(key).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : Number(a[1]) - Number(b[1])));
      const two = await index.leadingChunks({ sessionId: ids.sessionA, perJob: 2 });
      expect(two.map(key)).to.deep.equal(expected([c.a1, c.a2, c.a4, c.a5]));
      expect(two.find((x) => x.id === c.a4.id)).to.deep.equal(c.a4);
      expect((await index.leadingChunks({ sessionId: ids.sessionA, perJob: 1 })).map((x) => x.id).sort()).to.deep.equal([c.a1.id, c.a4.id].sort());
      expect((await index.leadingChunks({ sessionId: ids.sessionB, perJob: 10 })).map((x) => x.id)).to.deep.equal([c.b1.id, c.b2.id]);
      const globex = await index.leadingChunks({ sessionId: ids.sessionA, perJob: 3, filters: institution('Globex') });
      expect(globex.map((x) => x.id)).to.deep.equal([c.a4.id, c.a5.id]);
      expect(await index.leadingChunks({ sessionId: ids.sessionA, perJob: 0 })).to.deep.equal([]);
      expect((await index.leadingChunks({ sessionId: ids.sessionA, perJob: 2, jobIds: [ids.job2] })).map(key)).to.deep.equal(expected([c.a4, c.a5]));
      expect((await index.leadingChunks({ sessionId: ids.sessionA, perJob: 1, jobIds: [ids.job1, ids.job3] })).map((x) => x.id)).to.deep.equal([c.a1.id]);
      expect(await index.leadingChunks({ sessionId: ids.sessionA, perJob: 2, jobIds: [] })).to.deep.equal([]);
      expect(await index.leadingChunks({ sessionId: 'no-such-session', perJob: 2 })).to.deep.equal([]);
    });

    it('ranks first the chunk that shares the query’s distinctive words', async function () {
      const c = await seed();
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'mitochondria aerobic respiration', limit: 5 }));
      expect(hits.length).to.be.greaterThan(0);
      expect(hits[0].chunk.id).to.equal(c.a1.id);

      const glacier = await index.search(query({ sessionId: ids.sessionA, text: 'why do alpine glaciers retreat?', limit: 5 }));
      expect(glacier[0].chunk.id).to.equal(c.a2.id);
    });

    it('returns only chunks of the query’s session', async function () {
      const c = await seed();
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'mitochondria aerobic respiration', limit: 20 }));
      expect(hits.every((h) => h.chunk.sessionId === ids.sessionA)).to.equal(true);
      expect(hits.map((h) => h.chunk.id)).not.to.include(c.b1.id);

      const inB = await index.search(query({ sessionId: ids.sessionB, text: 'mitochondria aerobic respiration', limit: 20 }));
      expect(inB[0].chunk.id).to.equal(c.b1.id);
      expect(inB.every((h) => h.chunk.sessionId === ids.sessionB)).to.equal(true);
    });

    it('another session’s words change neither the order nor the scores of a session’s hits', async function () {
      // Otherwise a user could learn whether other users' documents hold a word: upload one chunk with it and one with
      // a made-up word, and see which ranks first once other sessions hold it too.
      const mine = (n: number, word: string): IndexedChunk =>
        chunk({ id: `${ids.sessionA}:probe-${n}`, sessionId: ids.sessionA, jobId: ids.job1, filename: 'memo.pdf', page: 1, ordinal: n, text: `the quarterly memo mentions ${word} planning`, tags: {} });
      await index.add([mine(0, 'orchid'), mine(1, 'zyxwv')]);
      const ask = async () =>
        (await index.search(query({ sessionId: ids.sessionA, text: 'orchid zyxwv', limit: 5 }))).map((h) => ({ id: h.chunk.id, score: h.score }));
      const alone = await ask();
      expect(alone.map((h) => h.id)).to.have.members([`${ids.sessionA}:probe-0`, `${ids.sessionA}:probe-1`]);

      await index.add(Array.from({ length: 30 }, (_, i) =>
        chunk({ id: `${ids.sessionB}:other-${i}`, sessionId: ids.sessionB, jobId: ids.job3, filename: 'other.pdf', page: 1, ordinal: i, text: `another memo mentions orchid planning ${i}`, tags: {} })));
      const crowded = await ask();
      expect(crowded.map((h) => h.id)).to.deep.equal(alone.map((h) => h.id));
      crowded.forEach((h, i) => expect(h.score).to.be.closeTo(alone[i].score, 1e-9));
    });

    it('with jobIds, returns only chunks of those documents, and nothing for an empty list', async function () {
      const c = await seed();
      const text = 'mortgage interest rates report';
      const both = await index.search(query({ sessionId: ids.sessionA, text, limit: 20 }));
      expect(new Set(both.map((h) => h.chunk.jobId))).to.deep.equal(new Set([ids.job1, ids.job2]));
      const second = await index.search(query({ sessionId: ids.sessionA, text, jobIds: [ids.job2], limit: 20 }));
      expect(second.map((h) => h.chunk.id)).to.include(c.a5.id);
      expect(second.every((h) => h.chunk.jobId === ids.job2)).to.equal(true);
      const withTags = await index.search(query({ sessionId: ids.sessionA, text, jobIds: [ids.job1, ids.job2], filters: institution('Globex'), limit: 20 }));
      expect(withTags.map((h) => h.chunk.id).sort()).to.deep.equal([c.a4.id, c.a5.id].sort());
      expect(await index.search(query({ sessionId: ids.sessionA, text, jobIds: [ids.job3], limit: 20 })), 'another session’s job').to.deep.equal([]);
      expect(await index.search(query({ sessionId: ids.sessionA, text, jobIds: [], limit: 20 }))).to.deep.equal([]);
    });

    it('a lexical index counts, per document of the session, its chunks and those holding each query word', async function () {
      if (index.kind === 'dense') {
        expect(index.documentTerms, 'a dense index has no words to count').to.equal(undefined);
        return;
      }
      await seed();
      const count = async (text: string, filters?: TagFilter[]) => {
        const documents = await index.documentTerms!({ sessionId: ids.sessionA, text, filters });
        return Object.fromEntries(documents.map((d) => [d.jobId, { chunks: d.chunks, holding: d.holding }]));
      };
      expect(await count('mortgage')).to.deep.equal({ [ids.job1]: { chunks: 3, holding: [1] }, [ids.job2]: { chunks: 3, holding: [1] } });
      // A document holding none of the words is still counted: it is one of the documents the words tell apart.
      expect(await count('volcano')).to.deep.equal({ [ids.job1]: { chunks: 3, holding: [0] }, [ids.job2]: { chunks: 3, holding: [1] } });
      expect(await count('Is the volcano’s lava basalt?'), 'a possessive counts as its word').to.deep.equal({
        [ids.job1]: { chunks: 3, holding: [0, 0, 0] }, [ids.job2]: { chunks: 3, holding: [1, 1, 1] },
      });
      const two = await count('glaciers mortgage');
      expect(two[ids.job1].holding.slice().sort()).to.deep.equal([1, 1]);
      expect(two[ids.job2].holding.slice().sort()).to.deep.equal([0, 1]);
      expect(await count('mortgage', institution('Globex'))).to.deep.equal({ [ids.job2]: { chunks: 2, holding: [1] } });
      expect(await index.documentTerms!({ sessionId: ids.sessionB, text: 'penguins' })).to.deep.equal([{ jobId: ids.job3, chunks: 2, holding: [1] }]);
      expect(await index.documentTerms!({ sessionId: `unknown-${randomUUID()}`, text: 'mortgage' })).to.deep.equal([]);
      expect(await index.documentTerms!({ sessionId: ids.sessionA, text: '?!' }), 'no word to count').to.deep.equal([]);
    });

    it('a lexical index finds the plain word for a possessive in the query (Acme’s → Acme)', async function () {
      if (index.kind === 'dense') return; // a dense index ranks by the embedding, not by words
      const c = await seed();
      const hits = await index.search(query({ sessionId: ids.sessionA, text: "the volcano's eruptions", limit: 5 }));
      expect(hits[0]?.chunk.id).to.equal(c.a4.id);
      const curly = await index.search(query({ sessionId: ids.sessionA, text: 'the saxophone’s quartets', limit: 5 }));
      expect(curly[0]?.chunk.id).to.equal(c.a6.id);
    });

    it('with an institution, returns only chunks tagged with that institution', async function () {
      const c = await seed();
      const hits = await index.search(
        query({ sessionId: ids.sessionA, text: 'mortgage interest rates report', filters: institution('Globex'), limit: 20 }),
      );
      expect(hits.length).to.be.greaterThan(0);
      expect(hits.every((h) => h.chunk.tags.institution === 'Globex')).to.equal(true);
      expect(hits[0].chunk.id).to.equal(c.a5.id);
      const found = hits.map((h) => h.chunk.id);
      expect(found).not.to.include(c.a3.id); // same words, other institution
      expect(found).not.to.include(c.a6.id); // no institution at all

      const acme = await index.search(
        query({ sessionId: ids.sessionA, text: 'mortgage interest rates report', filters: institution('Acme Bank'), limit: 20 }),
      );
      expect(acme[0].chunk.id).to.equal(c.a3.id);
      expect(acme.every((h) => h.chunk.tags.institution === 'Acme Bank')).to.equal(true);
      // Session B has an Acme chunk too: still only session A's.
      expect(acme.every((h) => h.chunk.sessionId === ids.sessionA)).to.equal(true);

      const none = await index.search(query({ sessionId: ids.sessionA, text: 'report', filters: institution('Initech'), limit: 20 }));
      expect(none).to.deep.equal([]);
    });

    it('without an institution, returns chunks of every institution and of none', async function () {
      const c = await seed();
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'report', limit: 20 }));
      const found = hits.map((h) => h.chunk.id);
      expect(found).to.include.members([c.a1.id, c.a4.id, c.a6.id]);
    });

    const idsOf = (hits: ChunkHit[]) => hits.map((h) => h.chunk.id).sort();

    it('with a list of values for a tag, returns chunks whose tag is any of them (and no untagged one)', async function () {
      const c = await seed();
      const both = await index.search(
        query({ sessionId: ids.sessionA, text: 'report', filters: [{ tag: 'institution', values: ['Acme Bank', 'Globex'] }], limit: 20 }),
      );
      expect(idsOf(both)).to.deep.equal([c.a1.id, c.a2.id, c.a3.id, c.a4.id, c.a5.id].sort());
      const years = await index.search(query({ sessionId: ids.sessionA, text: 'report', filters: [{ tag: 'year', values: ['2023'] }], limit: 20 }));
      expect(idsOf(years)).to.deep.equal([c.a1.id, c.a4.id].sort());
    });

    it('with several tags, returns only chunks meeting all of them', async function () {
      const c = await seed();
      const hits = await index.search(
        query({
          sessionId: ids.sessionA,
          text: 'report mortgage',
          filters: [{ tag: 'institution', values: ['Acme Bank', 'Globex'] }, { tag: 'year', values: ['2024'] }],
          limit: 20,
        }),
      );
      expect(idsOf(hits)).to.deep.equal([c.a3.id, c.a5.id].sort());
      expect(hits[0].chunk.tags).to.include({ year: '2024' });
      // Two conditions on one tag (the institution shorthand beside a filter on it): both must hold.
      const acmeOnly = await index.search(
        query({ sessionId: ids.sessionA, text: 'report', filters: [...institution('Acme Bank'), { tag: 'institution', values: ['Acme Bank', 'Globex'] }], limit: 20 }),
      );
      expect(idsOf(acmeOnly)).to.deep.equal([c.a1.id, c.a2.id, c.a3.id].sort());
      const contradiction = await index.search(
        query({ sessionId: ids.sessionA, text: 'report', filters: [...institution('Acme Bank'), ...institution('Globex')], limit: 20 }),
      );
      expect(contradiction).to.deep.equal([]);
    });

    it('a filter on a tag no chunk carries matches nothing; an empty filter list filters nothing', async function () {
      const c = await seed();
      expect(await index.search(query({ sessionId: ids.sessionA, text: 'report', filters: [{ tag: 'colour', values: ['red'] }], limit: 20 }))).to.deep.equal([]);
      const all = await index.search(query({ sessionId: ids.sessionA, text: 'report', filters: [], limit: 20 }));
      expect(idsOf(all)).to.deep.equal(c.sessionA.map((x) => x.id).sort());
    });

    it('matches tag names and values of any characters exactly (quotes, dots, unicode, SQL and JSON syntax)', async function () {
      await seed();
      const odd: Chunk = {
        id: `${ids.job2}:9`, sessionId: ids.sessionA, jobId: ids.job2, filename: 'odd.pdf', page: 1, ordinal: 9,
        text: 'Report: pelicans glide over the harbour at dawn.',
        tags: { "dept.name's": 'R&D / Ärzte "quoted"', '$weird[0]': "x' OR '1'='1" },
      };
      await index.add([chunk(odd)]);
      const find = (filters: TagFilter[]) => index.search(query({ sessionId: ids.sessionA, text: 'pelicans harbour', filters, limit: 5 }));
      expect((await find([{ tag: "dept.name's", values: ['R&D / Ärzte "quoted"'] }]))[0]?.chunk).to.deep.equal(odd);
      expect((await find([{ tag: '$weird[0]', values: ["x' OR '1'='1"] }]))[0]?.chunk).to.deep.equal(odd);
      expect(await find([{ tag: "dept.name's", values: ['R&D / Ärzte'] }])).to.deep.equal([]);
      expect(await find([{ tag: 'dept', values: ['R&D / Ärzte "quoted"'] }])).to.deep.equal([]);
    });

    it('returns at most `limit` hits', async function () {
      await seed();
      for (const limit of [1, 2, 4]) {
        const hits = await index.search(query({ sessionId: ids.sessionA, text: 'report', limit }));
        expect(hits, `limit ${limit}`).to.have.length(limit);
      }
    });

    it('orders hits by descending score, each a finite number', async function () {
      await seed();
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'mortgage interest report glaciers', limit: 10 }));
      expect(hits.length).to.be.greaterThan(2);
      for (const h of hits) expect(Number.isFinite(h.score), `score ${h.score}`).to.equal(true);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).to.be.at.least(hits[i].score);
    });

    it('hit.chunk carries the chunk as added: filename, page, ordinal, job, session, text, tags (unicode too)', async function () {
      const special: Chunk = {
        id: `${ids.job2}:7`,
        sessionId: ids.sessionA,
        jobId: ids.job2,
        filename: 'Ünïcødé – 報告書 📄 (final) v2.pdf',
        page: 12,
        ordinal: 7,
        text: 'Zürich señor naïve café: quokka marsupials sunbathe on rottnest island.',
        tags: { institution: 'Globex', department: 'R&D / Ärzte', year: '2024', empty: '' },
      };
      await seed();
      await index.add([chunk(special)]);
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'quokka marsupials rottnest', limit: 3 }));
      expect(hits[0].chunk).to.deep.equal(special);

      const filtered = await index.search(
        query({ sessionId: ids.sessionA, text: 'quokka marsupials rottnest', filters: institution('Globex'), limit: 3 }),
      );
      expect(filtered[0].chunk).to.deep.equal(special);
    });

    it('adding an id again replaces the chunk: count unchanged, new text found, old text gone', async function () {
      const c = await seed();
      const before = await index.count({ sessionId: ids.sessionA });
      const replaced: Chunk = { ...c.a2, text: 'Report on zeppelins: airship hangars house rigid dirigibles.', tags: { topic: 'aviation' } };
      await index.add([chunk(replaced)]);
      expect(await index.count({ sessionId: ids.sessionA })).to.equal(before);
      expect(await index.count({ jobId: ids.job1 })).to.equal(3);

      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'zeppelins airship dirigibles', limit: 3 }));
      expect(hits[0].chunk).to.deep.equal(replaced);

      // The old text is gone, and the old tags with it (no institution any more).
      const old = await index.search(query({ sessionId: ids.sessionA, text: 'alpine glaciers retreat', limit: 10 }));
      for (const h of old) expect(h.chunk.text).not.to.contain('glaciers');
      const acme = await index.search(query({ sessionId: ids.sessionA, text: 'zeppelins airship', filters: institution('Acme Bank'), limit: 10 }));
      expect(acme.map((h) => h.chunk.id)).not.to.include(c.a2.id);
    });

    it('the same id twice in one add keeps the last one', async function () {
      const first: Chunk = { ...corpus().a1, text: 'Report: first version about tortoises.' };
      const second: Chunk = { ...first, text: 'Report: second version about flamingos.' };
      await index.add([chunk(first), chunk(second)]);
      expect(await index.count({ sessionId: ids.sessionA })).to.equal(1);
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'flamingos', limit: 5 }));
      expect(hits[0].chunk.text).to.equal(second.text);
    });

    it('adds more chunks than one batch holds', async function () {
      const many: Chunk[] = Array.from({ length: 300 }, (_, i) => ({
        id: `${ids.job1}:${i}`,
        sessionId: ids.sessionA,
        jobId: ids.job1,
        filename: 'big.pdf',
        page: 1 + Math.floor(i / 3),
        ordinal: i,
        text: `Report section ${i}: item${i} widget${i % 7} gadget${i % 11}.`,
        tags: {},
      }));
      await index.add(many.map(chunk));
      expect(await index.count({ jobId: ids.job1 })).to.equal(300);
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'section 299 item299', limit: 3 }));
      expect(hits[0].chunk.id).to.equal(`${ids.job1}:299`);
    });

    it('an aborted signal stops add: it rejects with the signal’s reason and writes nothing', async function () {
      const stop = new AbortController();
      stop.abort(new Error('session deleted'));
      const c = chunk({ id: `${ids.job1}:0`, sessionId: ids.sessionA, jobId: ids.job1, filename: 'a.pdf', page: 1, ordinal: 0, text: 'late chunk', tags: {} });
      let thrown: unknown;
      await index.add([c], stop.signal).catch((error) => (thrown = error));
      expect((thrown as Error | undefined)?.message).to.equal('session deleted');
      expect(await index.count({})).to.equal(0);
    });

    it('add([]) does nothing', async function () {
      await index.add([]);
      expect(await index.count({})).to.equal(0);
    });

    it('counts by session, by job, by both, and in all', async function () {
      await seed();
      expect(await index.count({ sessionId: ids.sessionA })).to.equal(6);
      expect(await index.count({ sessionId: ids.sessionB })).to.equal(2);
      expect(await index.count({ jobId: ids.job1 })).to.equal(3);
      expect(await index.count({ jobId: ids.job2 })).to.equal(3);
      expect(await index.count({ sessionId: ids.sessionA, jobId: ids.job2 })).to.equal(3);
      expect(await index.count({ sessionId: ids.sessionB, jobId: ids.job2 })).to.equal(0);
      expect(await index.count({ sessionId: `unknown-${randomUUID()}` })).to.equal(0);
      expect(await index.count({})).to.equal(8);
    });

    it('deleteByJob removes that job’s chunks only', async function () {
      const c = await seed();
      await index.deleteByJob(ids.job1);
      expect(await index.count({ jobId: ids.job1 })).to.equal(0);
      expect(await index.count({ jobId: ids.job2 })).to.equal(3);
      expect(await index.count({ sessionId: ids.sessionB })).to.equal(2);
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'mitochondria respiration report', limit: 20 }));
      expect(hits.every((h) => h.chunk.jobId === ids.job2)).to.equal(true);
      const inB = await index.search(query({ sessionId: ids.sessionB, text: 'mitochondria respiration', limit: 5 }));
      expect(inB[0].chunk.id).to.equal(c.b1.id);
    });

    it('deleteByJob from an ordinal removes that job’s chunks from there on, and keeps those before it', async function () {
      const c = await seed();
      await index.deleteByJob(ids.job1, 1);
      expect(await index.count({ jobId: ids.job1 })).to.equal(1);
      expect(await index.count({ jobId: ids.job2 })).to.equal(3);
      const left = await index.leadingChunks({ sessionId: ids.sessionA, perJob: 10, jobIds: [ids.job1] });
      expect(left).to.deep.equal([c.a1]);
      const hits = await index.search(query({ sessionId: ids.sessionA, text: 'glaciers mortgage mitochondria report', limit: 20 }));
      expect(hits.filter((h) => h.chunk.jobId === ids.job1).map((h) => h.chunk.id)).to.deep.equal([c.a1.id]);
      // Written again from that ordinal (a resumed run): one chunk per id, as before.
      await index.add([c.a2, c.a3].map(chunk));
      expect(await index.count({ jobId: ids.job1 })).to.equal(3);
      await index.deleteByJob(ids.job1, 0);
      expect(await index.count({ jobId: ids.job1 })).to.equal(0);
    });

    it('deleteBySession removes that session’s chunks only', async function () {
      const c = await seed();
      await index.deleteBySession(ids.sessionA);
      expect(await index.count({ sessionId: ids.sessionA })).to.equal(0);
      expect(await index.count({ jobId: ids.job1 })).to.equal(0);
      expect(await index.count({ sessionId: ids.sessionB })).to.equal(2);
      expect(await index.search(query({ sessionId: ids.sessionA, text: 'report mitochondria', limit: 5 }))).to.deep.equal([]);
      const inB = await index.search(query({ sessionId: ids.sessionB, text: 'penguins antarctic', limit: 5 }));
      expect(inB[0].chunk.id).to.equal(c.b2.id);
    });

    it('deleting an unknown job or session is a no-op', async function () {
      await seed();
      await index.deleteByJob(`unknown-${randomUUID()}`);
      await index.deleteBySession(`unknown-${randomUUID()}`);
      expect(await index.count({})).to.equal(8);
    });

    it('copyJob copies a document’s chunks into another session: same text, pages, tags; found there, the source untouched', async function () {
      const c = await seed();
      const copy = `${ids.job1}-copy`;
      await index.copyJob({ fromJobId: ids.job1, toJobId: copy, toSessionId: ids.sessionB });
      expect(await index.count({ jobId: copy })).to.equal(3);
      expect(await index.count({ sessionId: ids.sessionB })).to.equal(5);
      expect(await index.count({ jobId: ids.job1 })).to.equal(3);
      const leading = await index.leadingChunks({ sessionId: ids.sessionB, perJob: 10, jobIds: [copy] });
      expect(leading).to.deep.equal(
        [c.a1, c.a2, c.a3].map((a) => ({ ...a, id: `${copy}:${a.ordinal}`, jobId: copy, sessionId: ids.sessionB })),
      );
      const hits = await index.search(query({ sessionId: ids.sessionB, text: 'alpine glaciers retreat', limit: 3, jobIds: [copy] }));
      expect(hits[0].chunk).to.include({ id: `${copy}:1`, jobId: copy, sessionId: ids.sessionB, page: 2 });
      // Tag filters see the copied tags.
      const in2024 = await index.search(query({ sessionId: ids.sessionB, text: 'mortgage interest', limit: 5, filters: [{ tag: 'year', values: ['2024'] }] }));
      expect(in2024.map((h) => h.chunk.id)).to.deep.equal([`${copy}:2`]);
    });

    it('copyJob again adds nothing; removing the copy leaves the source, removing the source leaves the copy', async function () {
      await seed();
      const copy = `${ids.job2}-copy`;
      await index.copyJob({ fromJobId: ids.job2, toJobId: copy, toSessionId: ids.sessionB });
      await index.copyJob({ fromJobId: ids.job2, toJobId: copy, toSessionId: ids.sessionB });
      expect(await index.count({ jobId: copy })).to.equal(3);
      await index.deleteByJob(copy);
      expect(await index.count({ jobId: ids.job2 })).to.equal(3);
      await index.copyJob({ fromJobId: ids.job2, toJobId: copy, toSessionId: ids.sessionB });
      await index.deleteBySession(ids.sessionA);
      expect(await index.count({ jobId: copy })).to.equal(3);
      const hits = await index.search(query({ sessionId: ids.sessionB, text: 'volcano basalt lava', limit: 1 }));
      expect(hits[0].chunk.id).to.equal(`${copy}:0`);
    });

    it('copyJob of an unknown job copies nothing', async function () {
      await seed();
      await index.copyJob({ fromJobId: `unknown-${randomUUID()}`, toJobId: `copy-${randomUUID()}`, toSessionId: ids.sessionB });
      expect(await index.count({})).to.equal(8);
    });

    it('search in a session without chunks answers []', async function () {
      expect(await index.search(query({ sessionId: ids.sessionA, text: 'anything at all', limit: 5 }))).to.deep.equal([]);
      await seed();
      const empty = await index.search(query({ sessionId: `unknown-${randomUUID()}`, text: 'mitochondria report', limit: 5 }));
      expect(empty).to.deep.equal([]);
    });

    it('a dense index rejects a query without embedding; a lexical one does not need it', async function () {
      await seed();
      const noEmbedding: IndexQuery = { sessionId: ids.sessionA, text: 'mitochondria respiration', limit: 3 };
      if (index.kind === 'dense') {
        let error: unknown;
        try {
          await index.search(noEmbedding);
        } catch (e) {
          error = e;
        }
        expect(error, 'search without embedding').to.be.instanceOf(Error);
        expect((error as Error).message).to.match(/embedding/i);
      } else {
        const hits: ChunkHit[] = await index.search(noEmbedding);
        expect(hits[0].chunk.id).to.equal(`${ids.job1}:0`);
      }
    });
  });
}

function fixtureIds() {
  const run = randomUUID().slice(0, 8);
  return {
    sessionA: `session-a-${run}`,
    sessionB: `session-b-${run}`,
    job1: `job-1-${run}`,
    job2: `job-2-${run}`,
    job3: `job-3-${run}`,
  };
}
