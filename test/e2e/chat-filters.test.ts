import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { textPdf } from '../support/make-pdf.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const NOT_FOUND_ANSWER = 'I could not find this in your documents.';
const QUESTION = 'What is the monthly maintenance fee on checking accounts?';
const INITECH = await textPdf({
  title: 'Initech Savings fee schedule',
  paragraphs: ['Initech Savings charges a monthly maintenance fee of 7 dollars on checking accounts.'],
});

// Each filter shape of the chat request, checked by the sources it lets through, on the embedded stack (SQLite FTS5),
// the production one (SQLite FTS5 + Chroma, fused) and the scaled one (PostgreSQL's index + Chroma) where PostgreSQL
// runs: three fee schedules, each answering the question.
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();

  describe(`tag filters on questions over HTTP (${stack.name} stack)`, function () {
    this.timeout(60_000);
    let t: TestService;
    let alice: ApiClient;
    let sessionId: string;
    const ids: Record<'acme' | 'globex' | 'initech', string> = { acme: '', globex: '', initech: '' };

    before(async () => {
      t = await stack.start();
      alice = await t.as('alice');
      sessionId = await alice.createSession('filters');
      ids.acme = (await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme', region: 'eu' })).jobId;
      ids.globex = (await alice.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex', region: 'us' })).jobId;
      ids.initech = (await alice.uploadAndIngest(sessionId, 'initech-fees.pdf', INITECH.bytes, 'application/pdf', { institution: 'initech', region: 'us', year: 2024 })).jobId;
      await t.service.whenIngestionIdle();
    });
    after(() => stack.close());

    /** The files cited for the question under these filters (and the answer, to see it agree). */
    async function cited(extra: Record<string, unknown>): Promise<{ files: string[]; answer: string }> {
      const res = await alice.post('/api/v1/chat/completions', { sessionId, message: QUESTION, ...extra });
      expect(res.status, res.text).to.equal(200);
      return { files: [...new Set<string>(res.body.sources.map((s: { filename: string }) => s.filename))].sort(), answer: res.body.data };
    }

    it('without filters, every schedule can be cited', async () => {
      expect((await cited({})).files).to.include.members(['globex-fees.pdf', 'initech-fees.pdf']);
    });

    it('one value: only documents with that tag value', async () => {
      const eu = await cited({ filters: { region: 'eu' } });
      expect(eu.files).to.deep.equal(['acme-fees.pdf']);
      expect(eu.answer).to.include('12 dollars');
      const year = await cited({ filters: { year: '2024' } });
      expect(year.files).to.deep.equal(['initech-fees.pdf']);
      expect(year.answer).to.include('7 dollars');
    });

    it('a list: documents with any of the values', async () => {
      const { files } = await cited({ filters: { institution: ['acme', 'initech'] } });
      expect(files.length).to.be.greaterThan(0);
      expect(files.every((f) => f === 'acme-fees.pdf' || f === 'initech-fees.pdf'), files.join()).to.equal(true);
      expect((await cited({ filters: { institution: ['globex'] } })).files).to.deep.equal(['globex-fees.pdf']);
    });

    it('several tags: documents meeting all of them', async () => {
      const { files, answer } = await cited({ filters: { region: 'us', institution: ['acme', 'globex'] } });
      expect(files).to.deep.equal(['globex-fees.pdf']);
      expect(answer).to.include('3 dollars');
    });

    it('the institution shorthand alone, and beside filters (both must hold)', async () => {
      expect((await cited({ institution: 'initech' })).files).to.deep.equal(['initech-fees.pdf']);
      expect((await cited({ institution: 'globex', filters: { region: ['us', 'eu'] } })).files).to.deep.equal(['globex-fees.pdf']);
      const contradiction = await cited({ institution: 'acme', filters: { region: 'us' } });
      expect(contradiction).to.deep.equal({ files: [], answer: NOT_FOUND_ANSWER });
      expect(await cited({ filters: { region: 'asia' } })).to.deep.equal({ files: [], answer: NOT_FOUND_ANSWER });
    });

    it('documents: only the chosen documents, beside the filters (both must hold)', async () => {
      const globex = await cited({ documents: [ids.globex] });
      expect(globex.files).to.deep.equal(['globex-fees.pdf']);
      expect(globex.answer).to.include('3 dollars');
      const two = await cited({ documents: [ids.acme, ids.initech] });
      expect(two.files.length).to.be.greaterThan(0);
      expect(two.files.every((f) => f === 'acme-fees.pdf' || f === 'initech-fees.pdf'), two.files.join()).to.equal(true);
      expect((await cited({ documents: [ids.acme, ids.initech], filters: { region: 'us' } })).files).to.deep.equal(['initech-fees.pdf']);
      expect(await cited({ documents: [ids.acme], institution: 'globex' })).to.deep.equal({ files: [], answer: NOT_FOUND_ANSWER });
    });

    it('refuses bad documents with 400 and a text naming the problem, storing nothing', async () => {
      const before = (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length;
      const elsewhere = await alice.createSession('elsewhere');
      const other = (await alice.uploadAndIngest(elsewhere, 'other.pdf', ACME.bytes, 'application/pdf')).jobId;
      await t.service.whenIngestionIdle();
      const cases: [unknown, string][] = [
        [ids.acme, 'documents: documents must be an array of ingest ids'],
        [[], 'documents: documents must name at least one document (leave it out to ask every document)'],
        [[ids.acme, 7], 'documents.1: each of documents must be an ingest id (a string)'],
        [Array.from({ length: 201 }, () => ids.acme), 'documents: documents must name at most 200 documents'],
        [[ids.acme, other], `documents: "${other}" is not a document of this session`],
        [['made-up'], 'documents: "made-up" is not a document of this session'],
      ];
      for (const [documents, error] of cases) {
        const res = await alice.post('/api/v1/chat/completions', { sessionId, message: QUESTION, documents });
        expect(res.status, JSON.stringify(documents).slice(0, 60)).to.equal(400);
        expect(res.body).to.deep.equal({ error });
      }
      const bob = await t.as('bob');
      const res = await bob.post('/api/v1/chat/completions', { sessionId, message: QUESTION, documents: [ids.acme] });
      expect(res.status, 'another user’s session stays not found').to.equal(404);
      expect((await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length).to.equal(before);
    });

    it('refuses bad filters with 400 and a text naming the problem, storing nothing', async () => {
      const before = (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length;
      const cases: [unknown, string][] = [
        ['eu', 'filters: filters must be an object of tag names to a value or an array of values'],
        [['region'], 'filters: filters must be an object of tag names to a value or an array of values'],
        [{ region: 5 }, 'filters.region: each filter must be a string or an array of strings'],
        [{ region: ['eu', null] }, 'filters.region: each filter must be a string or an array of strings'],
        [{ region: { $in: ['eu'] } }, 'filters.region: each filter must be a string or an array of strings'],
        [{ region: [] }, 'filters.region must list at least one value'],
        [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`tag${i}`, 'x'])), 'filters may name at most 10 tags'],
        [{ region: Array.from({ length: 51 }, (_, i) => `r${i}`) }, 'filters.region may list at most 50 values'],
        [{ ['t'.repeat(65)]: 'x' }, 'filters: tag names must be 1..64 characters'],
        [{ region: 'x'.repeat(501) }, 'filters.region values must be at most 500 characters'],
        // The JSON body parser itself refuses a __proto__ key.
        [JSON.parse('{"__proto__":"x"}'), 'Malformed JSON body'],
        [{ constructor: 'x' }, 'filters: "constructor" cannot be a tag name'],
      ];
      for (const [filters, error] of cases) {
        const res = await alice.post('/api/v1/chat/completions', { sessionId, message: QUESTION, filters });
        expect(res.status, JSON.stringify(filters).slice(0, 60)).to.equal(400);
        expect(res.body).to.deep.equal({ error });
      }
      expect((await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length).to.equal(before);
    });
  });
}
