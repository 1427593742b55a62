import { expect } from 'chai';
import { sourceLine } from '../support/answer-source-line.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { textPdf } from '../support/make-pdf.js';
import { queryRecords } from '../support/records-query.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const rows = queryRecords;

const NOT_FOUND_ANSWER = 'I could not find this in your documents.';

// Every test runs on the embedded defaults and on S3 (s3rver) + Chroma + Ollama (fake server), with the same
// assertions except where the two differ by design (the answer's wording, the upload endpoint's own checks).
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();
  /** Records in the dense index for a filter, or null on the embedded stack (SQLite's chunks are checked directly). */
  const denseCount = async (filter: { sessionId?: string; jobId?: string }) => stack.vectorRecordCount(filter);

  describe(`ingestion and chat over HTTP (${stack.name} stack)`, function () {
    this.timeout(120_000);
    let t: TestService;
    let alice: ApiClient;
    let bob: ApiClient;

    before(async () => {
      t = await stack.start();
      alice = await t.as('alice');
      bob = await t.as('bob');
    });
    after(() => stack.close());

    describe('upload URL', () => {
      it('returns { uploadData: { signedUrl, key } } with the key under the caller’s prefix', async () => {
        const res = await alice.post('/api/v1/ingest/upload/url', { filename: '../../../etc/Été résumé.pdf', contentType: 'application/pdf', contentSize: 1000 });
        expect(res.status).to.equal(200);
        expect(res.body.uploadData.key).to.match(/^alice\/[0-9a-f-]{36}-etc-Été-résumé\.pdf$/);
        expect(res.body.uploadData.signedUrl.startsWith(stack.uploadUrlPrefix(t)), res.body.uploadData.signedUrl).to.equal(true);
      });

      // The local store limits a key's path segment to 250 bytes; 300 CJK characters are 900.
      if (stack.name === 'embedded') {
        it('issues a working URL for a 300-character CJK file name, the key within the stores’ limits', async () => {
          const res = await alice.post('/api/v1/ingest/upload/url', { filename: `${'長'.repeat(300)}.pdf`, contentType: 'application/pdf', contentSize: ACME.bytes.length });
          expect(res.status, res.text).to.equal(200);
          const { key, signedUrl } = res.body.uploadData;
          expect(key).to.match(/^alice\/[0-9a-f-]{36}-長+\.pdf$/);
          expect(Buffer.byteLength(key, 'utf8')).to.be.at.most(1024);
          for (const segment of key.split('/')) expect(Buffer.byteLength(segment, 'utf8')).to.be.at.most(250);
          const put = await alice.putToSignedUrl(signedUrl, ACME.bytes, 'application/pdf');
          expect(put.status, put.text).to.equal(200);
          expect(await stack.storedObjectKeys()).to.include(key);
        });
      }

      it('checks the size first, then the type, with the spec’s texts', async () => {
        const big = await alice.post('/api/v1/ingest/upload/url', { filename: 'a.gif', contentType: 'image/gif', contentSize: 52_428_801 });
        expect(big.status).to.equal(400);
        expect(big.body).to.deep.equal({ error: 'Maximum file size limit exceed' });
        const type = await alice.post('/api/v1/ingest/upload/url', { filename: 'a.gif', contentType: 'image/gif', contentSize: 10 });
        expect(type.status).to.equal(400);
        expect(type.body).to.deep.equal({ error: 'Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg' });
        for (const body of [{}, { filename: 'a.pdf', contentType: 'application/pdf' }, { filename: 1, contentType: 'application/pdf', contentSize: 1 }, { filename: 'a.pdf', contentType: 'application/pdf', contentSize: '10' }]) {
          const res = await alice.post('/api/v1/ingest/upload/url', body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.error).to.be.a('string');
        }
      });
    });

    describe('upload abuse stores nothing', () => {
      const signed = async (contentSize: number, contentType = 'application/pdf') =>
        (await alice.post('/api/v1/ingest/upload/url', { filename: 'x.pdf', contentType, contentSize })).body.uploadData;
      const put = (url: string, body: Uint8Array | string, type = 'application/pdf') => alice.putToSignedUrl(url, body, type);

      // The app's own /uploads endpoint (embedded) checks the signed size, Content-Type and signature. A presigned S3
      // PUT binds only key, host and expiry (S3 does not enforce a declared size or type: the service checks the
      // stored object's size at ingest instead), and s3rver does not verify signatures at all (a real S3 server does: see the
      // Testcontainers suite) — so these three apply to the embedded stack only.
      if (stack.name === 'embedded') {
        it('refuses a body bigger than declared (413)', async () => {
          const before = (await stack.storedObjectKeys()).length;
          const { signedUrl } = await signed(10);
          expect((await put(signedUrl, 'x'.repeat(1000))).status).to.equal(413);
          expect((await stack.storedObjectKeys()).length).to.equal(before);
        });

        it('refuses a different Content-Type (415)', async () => {
          const before = (await stack.storedObjectKeys()).length;
          const { signedUrl } = await signed(ACME.bytes.length);
          expect((await put(signedUrl, ACME.bytes, 'image/jpeg')).status).to.equal(415);
          expect((await stack.storedObjectKeys()).length).to.equal(before);
        });

        it('refuses tampered URLs (403): key, size, type, expiry, signature', async () => {
          const before = (await stack.storedObjectKeys()).length;
          const { signedUrl } = await signed(ACME.bytes.length);
          const url = new URL(signedUrl);
          const tampered = [
            Object.assign(new URL(url), { pathname: url.pathname.replace('/uploads/alice/', '/uploads/bob/') }),
            (() => { const u = new URL(url); u.searchParams.set('size', String(60 * 1024 * 1024)); return u; })(),
            (() => { const u = new URL(url); u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86_400)); return u; })(),
            (() => { const u = new URL(url); u.searchParams.set('sig', '0'.repeat(64)); return u; })(),
            (() => { const u = new URL(url); u.searchParams.delete('sig'); return u; })(),
          ];
          for (const u of tampered) expect((await put(u.toString(), ACME.bytes)).status, u.toString()).to.equal(403);
          expect((await stack.storedObjectKeys()).length).to.equal(before);
        });
      }

      it('refuses an expired URL (403) and stores nothing', async () => {
        const before = await stack.storedObjectKeys();
        const { signedUrl } = await signed(ACME.bytes.length);
        expect((await put(stack.expiredUploadUrl(signedUrl), ACME.bytes)).status).to.equal(403);
        expect(await stack.storedObjectKeys()).to.deep.equal(before);
      });

      it('refuses to ingest a key that was never uploaded, or another user’s key', async () => {
        const sessionId = await alice.createSession('abuse');
        const { key } = await signed(100);
        const notUploaded = await alice.post('/api/v1/ingest/process', { key, filename: 'x.pdf', session_id: sessionId, tags: {} });
        expect(notUploaded.status).to.equal(400);
        expect(notUploaded.body.error).to.match(/No file has been uploaded/);
        const bobKey = await bob.upload('bob.pdf', ACME.bytes, 'application/pdf');
        const foreign = await alice.post('/api/v1/ingest/process', { key: bobKey, filename: 'x.pdf', session_id: sessionId, tags: {} });
        expect(foreign.status).to.equal(403);
        for (const body of [{ key, filename: 'x.pdf', session_id: sessionId }, { key, filename: 'x.pdf', session_id: sessionId, tags: 'a' }, { key, filename: 'x.pdf', session_id: sessionId, tags: { a: { b: 1 } } }]) {
          expect((await alice.post('/api/v1/ingest/process', body)).status, JSON.stringify(body)).to.equal(400);
        }
        expect(await rows(t, 'SELECT id FROM ingest_jobs WHERE session_id = ?', sessionId)).to.deep.equal([]);
      });
    });

    describe('a document from upload to answer', () => {
      let sessionId: string;
      let acmeJob: string;

      before(async () => {
        sessionId = await alice.createSession('banks');
        acmeJob = (await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' })).jobId;
        await alice.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex', year: 2024 });
        await t.service.whenIngestionIdle();
      });

      it('reports the job as the architecture guide describes', async () => {
        const res = await alice.get(`/api/v1/ingest/${acmeJob}`);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.include({ id: acmeJob, status: 'completed', filename: 'acme-fees.pdf', session_id: sessionId, pages: 2, progress: 1 });
        expect(res.body.data.chunks).to.be.greaterThan(0);
        // The guide's fields, and the document's kind (docs/api.md's extension: a fee schedule is none of the domain kinds).
        expect(res.body.data).to.have.keys(['id', 'status', 'progress', 'filename', 'session_id', 'pages', 'chunks', 'kind', 'tags', 'createdAt', 'updatedAt']);
        expect(res.body.data.kind).to.equal('other');
        // Every chunk is in each index: SQLite's BM25 table, and Chroma where it is the dense index.
        expect((await rows(t, 'SELECT id FROM chunks WHERE job_id = ?', acmeJob)).length).to.equal(res.body.data.chunks);
        const dense = await denseCount({ jobId: acmeJob });
        if (dense !== null) expect(dense).to.equal(res.body.data.chunks);
        expect((await bob.get(`/api/v1/ingest/${acmeJob}`)).status).to.equal(404);
        expect((await alice.get('/api/v1/ingest/no-such-job')).body).to.deep.equal({ error: 'Ingest job not found' });
      });

      it('answers with the quoted sentence, its file and page, and sources', async () => {
        const res = await alice.ask(sessionId, 'How much does an international wire transfer cost at Acme Bank?');
        expect(res.status).to.equal(200);
        expect(res.body.success).to.equal(true);
        expect(res.body.data).to.include('45 dollars');
        // The extractive answerer names file and page in the text; a generative model cites the passage's ref, which
        // the service resolves to the same source (below).
        if (stack.answerer === 'extractive') expect(res.body.data).to.include('acme-fees.pdf, page 2');
        else expect(res.body.data).to.match(/\[\d+\]/);
        expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: acmeJob });
        expect(res.body.sources[0].excerpt).to.include('International wire transfers');
        expect(res.body.sources[0].score).to.be.a('number');
        // Each source says whether the answer quotes it (passages found but not quoted are listed as not cited).
        expect(res.body.sources.map((s: any) => typeof s.cited)).to.satisfy((kinds: string[]) => kinds.every((k) => k === 'boolean'));
        const cited = [...new Set(res.body.sources.filter((s: any) => s.cited).map((s: any) => `${s.filename}, page ${s.page}`))];
        expect(cited).to.include('acme-fees.pdf, page 2');
        if (stack.answerer === 'extractive') {
          const named = [...sourceLine(res.body.data).values()];
          expect(cited.sort()).to.deep.equal(named.sort()); // exactly the pages the answer quotes
        }
        // Each cited source carries the number the text cites it by; the extractive answer's source line names its page.
        for (const source of res.body.sources.filter((s: any) => s.cited)) {
          expect(res.body.data).to.include(`[${source.marker}]`);
          if (stack.answerer === 'extractive') expect(res.body.data).to.include(`[${source.marker}] ${source.filename}, page ${source.page}`);
        }
        expect(res.body.sources.filter((s: any) => !s.cited && 'marker' in s)).to.deep.equal([]);
      });

      it('restricts retrieval to the institution', async () => {
        const globex = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'globex');
        expect(globex.body.data).to.include('3 dollars');
        expect(globex.body.sources.every((s: any) => s.filename === 'globex-fees.pdf')).to.equal(true);
        const acme = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'acme');
        expect(acme.body.data).to.include('12 dollars');
        expect(acme.body.sources.every((s: any) => s.filename === 'acme-fees.pdf')).to.equal(true);
        const none = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'initech');
        expect(none.body).to.deep.include({ success: true, data: NOT_FOUND_ANSWER, sources: [] });
      });

      // A model rewrites a follow-up itself (Ollama's rewriteQuestion, tested with its adapter); the embedded
      // answerer reads it as the question it stands for (core/rag/follow-up.ts).
      if (stack.answerer === 'extractive') {
        it('answers a follow-up as the question it stands for: "And in 2024?", then "What about Acme Bank?"', async () => {
          const chat = await alice.createSession('follow-ups');
          const fees = (bank: string, then: number, now: number) => textPdf({
            title: `${bank} fee history`,
            paragraphs: [`In 2023 the monthly fee at ${bank} was ${then} dollars.`, `In 2024 the monthly fee at ${bank} was ${now} dollars.`],
          });
          await alice.uploadAndIngest(chat, 'acme-history.pdf', (await fees('Acme Bank', 10, 12)).bytes, 'application/pdf', {});
          await alice.uploadAndIngest(chat, 'globex-history.pdf', (await fees('Globex Credit Union', 2, 3)).bytes, 'application/pdf', {});
          await t.service.whenIngestionIdle();
          const firstQuote = async (message: string) => {
            const res = await alice.ask(chat, message);
            expect(res.status, res.text).to.equal(200);
            return (res.body.data as string).split('” [1]')[0];
          };
          expect(await firstQuote("What was Globex Credit Union's monthly fee in 2023?")).to.include('2 dollars');
          expect(await firstQuote('And in 2024?')).to.include('In 2024 the monthly fee at Globex Credit Union was 3 dollars');
          expect(await firstQuote('What about Acme Bank?')).to.include('In 2024 the monthly fee at Acme Bank was 12 dollars');
          // The history keeps what was asked, as asked.
          const history = (await alice.get(`/api/v1/chat/history/${chat}`)).body.data;
          expect(history.map((m: { content: string }) => m.content)).to.include('And in 2024?');
        });
      }

      it('keeps documents to their session: another session (even the same user’s) sees none of them', async () => {
        const other = await alice.createSession('empty');
        const res = await alice.ask(other, 'How much does an international wire transfer cost at Acme Bank?');
        expect(res.body.data).to.equal(NOT_FOUND_ANSWER);
        expect(res.body.sources).to.deep.equal([]);
        expect((await bob.ask(sessionId, 'wire transfer cost?')).status).to.equal(404);
      });

      it('records the exchanges in the history, question then answer', async () => {
        const history = (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data;
        expect(history.length).to.be.greaterThanOrEqual(8);
        expect(history[0]).to.include({ role: 'user', content: 'How much does an international wire transfer cost at Acme Bank?' });
        expect(history[1].role).to.equal('assistant');
        expect(history[1].content).to.include('45 dollars');
        expect(history[1].sources.filter((s: any) => s.cited).map((s: any) => s.page)).to.include(2);
      });

      it('refuses bad chat input with 400 and stores nothing', async () => {
        const before = (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length;
        for (const body of [{ sessionId }, { message: 'hi' }, { message: 5, sessionId }, { message: 'hi', sessionId, institution: 3 }, { message: '  ', sessionId }]) {
          const res = await alice.post('/api/v1/chat/completions', body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.error).to.be.a('string');
        }
        expect((await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data.length).to.equal(before);
      });

      it('re-ingesting identical content into the session reuses it', async () => {
        const again = (await alice.uploadAndIngest(sessionId, 'acme-copy.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' })).jobId;
        const job = await alice.waitForJob(again);
        expect(job).to.include({ status: 'completed', reusedFrom: acmeJob });
        expect(await rows(t, 'SELECT id FROM chunks WHERE job_id = ?', again)).to.deep.equal([]);
        const dense = await denseCount({ jobId: again });
        if (dense !== null) expect(dense).to.equal(0);
      });

      it('deleting the session removes its messages, jobs, chunks and stored files', async () => {
        const keysBefore = (await rows(t, 'SELECT blob_key FROM ingest_jobs WHERE session_id = ?', sessionId)).map((r) => r.blob_key);
        expect(keysBefore.length).to.equal(3);
        const otherSession = await alice.createSession('survivor');
        const { key: otherKey } = await alice.uploadAndIngest(otherSession, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf');
        await t.service.whenIngestionIdle();
        const filesBefore = await stack.storedObjectKeys();
        expect(filesBefore).to.include.members([...keysBefore, otherKey]);
        const denseBefore = await denseCount({ sessionId });
        if (denseBefore !== null) expect(denseBefore).to.be.greaterThan(0);

        expect((await alice.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
        expect(await rows(t, 'SELECT id FROM chat_messages WHERE session_id = ?', sessionId)).to.deep.equal([]);
        expect(await rows(t, 'SELECT id FROM ingest_jobs WHERE session_id = ?', sessionId)).to.deep.equal([]);
        expect(await rows(t, 'SELECT id FROM chunks WHERE session_id = ?', sessionId)).to.deep.equal([]);
        const filesAfter = await stack.storedObjectKeys();
        expect(filesAfter.length).to.equal(filesBefore.length - 3);
        for (const key of keysBefore) expect(filesAfter).to.not.include(key);
        expect(filesAfter).to.include(otherKey);
        const denseAfter = await denseCount({ sessionId });
        if (denseAfter !== null) expect(denseAfter).to.equal(0);
        expect((await alice.get(`/api/v1/ingest/${acmeJob}`)).status).to.equal(404);
        // The other session keeps everything.
        expect((await rows(t, 'SELECT id FROM chunks WHERE session_id = ?', otherSession)).length).to.be.greaterThan(0);
        const denseOther = await denseCount({ sessionId: otherSession });
        if (denseOther !== null) expect(denseOther).to.be.greaterThan(0);
        expect((await alice.ask(otherSession, 'What is the monthly maintenance fee?')).body.data).to.include('3 dollars');
      });
    });
  });
}
