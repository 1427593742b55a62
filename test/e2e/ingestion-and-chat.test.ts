import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { PAGE_BREAK, textPdf } from '../support/make-pdf.js';
import { startTestService, type TestService } from '../support/test-service.js';

const ACME = await textPdf({
  title: 'Acme Bank fee schedule',
  paragraphs: [
    'Acme Bank charges a monthly maintenance fee of 12 dollars on checking accounts.',
    'The fee is waived when the average balance stays above 1500 dollars.',
    PAGE_BREAK,
    'International wire transfers at Acme Bank cost 45 dollars each.',
  ],
});
const GLOBEX = await textPdf({
  title: 'Globex Credit Union fee schedule',
  paragraphs: ['Globex Credit Union charges a monthly maintenance fee of 3 dollars on checking accounts.'],
});

function rows(t: TestService, sql: string, ...params: unknown[]): any[] {
  return t.service.container.get<SqliteDatabase>(TOKENS.Database).raw.prepare(sql).all(...params);
}

function blobFiles(t: TestService): string[] {
  const root = path.join(t.dataDir, 'blobs', 'objects');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

describe('ingestion and chat over HTTP (embedded defaults)', function () {
  this.timeout(120_000);
  let t: TestService;
  let alice: ApiClient;
  let bob: ApiClient;

  before(async () => {
    t = await startTestService();
    alice = await t.as('alice');
    bob = await t.as('bob');
  });
  after(() => t.close());

  describe('upload URL', () => {
    it('returns { uploadData: { signedUrl, key } } with the key under the caller’s prefix', async () => {
      const res = await alice.post('/api/v1/ingest/upload/url', { filename: '../../../etc/Été résumé.pdf', contentType: 'application/pdf', contentSize: 1000 });
      expect(res.status).to.equal(200);
      expect(res.body.uploadData.key).to.match(/^alice\/[0-9a-f-]{36}-etc-Été-résumé\.pdf$/);
      expect(res.body.uploadData.signedUrl).to.match(new RegExp(`^${t.baseUrl}/uploads/`));
    });

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
    const put = (url: string, body: Uint8Array | string, type = 'application/pdf') => fetch(url, { method: 'PUT', body, headers: { 'Content-Type': type } });

    it('refuses a body bigger than declared (413)', async () => {
      const before = blobFiles(t).length;
      const { signedUrl } = await signed(10);
      expect((await put(signedUrl, 'x'.repeat(1000))).status).to.equal(413);
      expect(blobFiles(t).length).to.equal(before);
    });

    it('refuses a different Content-Type (415)', async () => {
      const before = blobFiles(t).length;
      const { signedUrl } = await signed(ACME.bytes.length);
      expect((await put(signedUrl, ACME.bytes, 'image/jpeg')).status).to.equal(415);
      expect(blobFiles(t).length).to.equal(before);
    });

    it('refuses tampered URLs (403): key, size, type, expiry, signature', async () => {
      const before = blobFiles(t).length;
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
      expect(blobFiles(t).length).to.equal(before);
    });

    it('refuses an expired URL (403)', async () => {
      const { signedUrl } = await signed(ACME.bytes.length);
      const u = new URL(signedUrl);
      u.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
      expect((await put(u.toString(), ACME.bytes)).status).to.equal(403);
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
      expect(rows(t, 'SELECT id FROM ingest_jobs WHERE session_id = ?', sessionId)).to.deep.equal([]);
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
      expect(res.body.data).to.have.keys(['id', 'status', 'progress', 'filename', 'session_id', 'pages', 'chunks', 'tags', 'createdAt', 'updatedAt']);
      expect((await bob.get(`/api/v1/ingest/${acmeJob}`)).status).to.equal(404);
      expect((await alice.get('/api/v1/ingest/no-such-job')).body).to.deep.equal({ error: 'Ingest job not found' });
    });

    it('answers with the quoted sentence, its file and page, and sources', async () => {
      const res = await alice.ask(sessionId, 'How much does an international wire transfer cost at Acme Bank?');
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.data).to.include('45 dollars');
      expect(res.body.data).to.include('acme-fees.pdf, page 2');
      expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: acmeJob });
      expect(res.body.sources[0].excerpt).to.include('International wire transfers');
      expect(res.body.sources[0].score).to.be.a('number');
    });

    it('restricts retrieval to the institution', async () => {
      const globex = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'globex');
      expect(globex.body.data).to.include('3 dollars');
      expect(globex.body.sources.every((s: any) => s.filename === 'globex-fees.pdf')).to.equal(true);
      const acme = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'acme');
      expect(acme.body.data).to.include('12 dollars');
      expect(acme.body.sources.every((s: any) => s.filename === 'acme-fees.pdf')).to.equal(true);
      const none = await alice.ask(sessionId, 'What is the monthly maintenance fee?', 'initech');
      expect(none.body).to.deep.include({ success: true, data: 'I could not find this in your documents.', sources: [] });
    });

    it('keeps documents to their session: another session (even the same user’s) sees none of them', async () => {
      const other = await alice.createSession('empty');
      const res = await alice.ask(other, 'How much does an international wire transfer cost at Acme Bank?');
      expect(res.body.data).to.equal('I could not find this in your documents.');
      expect((await bob.ask(sessionId, 'wire transfer cost?')).status).to.equal(404);
    });

    it('records the exchanges in the history, question then answer', async () => {
      const history = (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data;
      expect(history.length).to.be.greaterThanOrEqual(8);
      expect(history[0]).to.include({ role: 'user', content: 'How much does an international wire transfer cost at Acme Bank?' });
      expect(history[1].role).to.equal('assistant');
      expect(history[1].content).to.include('45 dollars');
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
      expect(rows(t, 'SELECT id FROM chunks WHERE job_id = ?', again)).to.deep.equal([]);
    });

    it('deleting the session removes its messages, jobs, chunks and stored files', async () => {
      const keysBefore = rows(t, 'SELECT blob_key FROM ingest_jobs WHERE session_id = ?', sessionId).map((r) => r.blob_key);
      expect(keysBefore.length).to.equal(3);
      const otherSession = await alice.createSession('survivor');
      await alice.uploadAndIngest(otherSession, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf');
      await t.service.whenIngestionIdle();
      const filesBefore = blobFiles(t).length;

      expect((await alice.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
      expect(rows(t, 'SELECT id FROM chat_messages WHERE session_id = ?', sessionId)).to.deep.equal([]);
      expect(rows(t, 'SELECT id FROM ingest_jobs WHERE session_id = ?', sessionId)).to.deep.equal([]);
      expect(rows(t, 'SELECT id FROM chunks WHERE session_id = ?', sessionId)).to.deep.equal([]);
      expect(blobFiles(t).length).to.equal(filesBefore - 3);
      expect((await alice.get(`/api/v1/ingest/${acmeJob}`)).status).to.equal(404);
      // The other session keeps everything.
      expect(rows(t, 'SELECT id FROM chunks WHERE session_id = ?', otherSession).length).to.be.greaterThan(0);
      expect((await alice.ask(otherSession, 'What is the monthly maintenance fee?')).body.data).to.include('3 dollars');
    });
  });
});
