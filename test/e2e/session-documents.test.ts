import { createCanvas } from '@napi-rs/canvas';
import { expect } from 'chai';
import { readJpegHeader } from '../../adapters/extraction/jpeg-header.js';
import type { BlobStore } from '../../core/ports/blob-store.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const QUESTION = 'What is the monthly maintenance fee on checking accounts?';

/** A photographed page stand-in: black text on white, 1800 x 1200 (wider than the 1600 bound). */
async function photo(): Promise<Uint8Array> {
  const canvas = createCanvas(1800, 1200);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1800, 1200);
  ctx.fillStyle = '#000000';
  ctx.font = '96px sans-serif';
  ctx.fillText('Receipt total 42 dollars', 100, 400);
  return new Uint8Array(await canvas.encode('jpeg', 90));
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

// Listing and removing a session's documents, on every stack: SQLite FTS5 + local files, SQLite + Chroma + S3
// (s3rver), and PostgreSQL's index + Chroma + S3 where PostgreSQL runs.
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();

  describe(`session documents over HTTP (${stack.name} stack)`, function () {
    this.timeout(60_000);
    let t: TestService;
    let alice: ApiClient;
    let bob: ApiClient;
    after(() => stack.close());

    before(async () => {
      t = await stack.start();
      alice = await t.as('alice');
      bob = await t.as('bob');
    });

    const indexes = (): VectorIndex[] =>
      [t.service.container.get<VectorIndex>(TOKENS.LexicalIndex), t.service.container.get<VectorIndex>(TOKENS.DenseIndex, { optional: true })]
        .filter((index): index is VectorIndex => index !== undefined);
    const chunksOf = async (jobId: string) => (await Promise.all(indexes().map((i) => i.count({ jobId })))).reduce((a, b) => a + b, 0);
    const blobs = () => t.service.container.get<BlobStore>(TOKENS.BlobStore);
    const cited = async (sessionId: string) => {
      const res = await alice.post('/api/v1/chat/completions', { sessionId, message: QUESTION });
      expect(res.status, res.text).to.equal(200);
      return new Set<string>(res.body.sources.map((s: { ingestId: string }) => s.ingestId));
    };

    it('takes a document’s kind from a valid `document_kind` tag, and refuses another with a 400 that starts nothing', async () => {
      const sessionId = await alice.createSession('kinds');
      const tagged = await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { document_kind: 'form' });
      expect((await alice.get(`/api/v1/ingest/${tagged.jobId}`)).body.data).to.include({ kind: 'form' });
      await alice.waitForJob(tagged.jobId);
      expect((await alice.get(`/api/v1/ingest/${tagged.jobId}`)).body.data).to.include({ kind: 'form', status: 'completed' });
      const key = await alice.upload('globex-fees.pdf', GLOBEX.bytes, 'application/pdf');
      const refused = await alice.post('/api/v1/ingest/process', { key, filename: 'globex-fees.pdf', session_id: sessionId, tags: { document_kind: 'invoice' } });
      expect(refused.status).to.equal(400);
      expect(refused.body).to.deep.equal({ error: 'tags.document_kind must be one of: receipt, financial-report, form, letter, other' });
      expect((await alice.get(`/api/v1/session/${sessionId}/documents`)).body.data).to.have.length(1);
    });

    it('lists a session’s documents newest first in the ingest record shape, and 404s a missing or foreign session', async () => {
      const sessionId = await alice.createSession('list');
      expect((await alice.get(`/api/v1/session/${sessionId}/documents`)).body).to.deep.equal({ data: [] });
      const first = await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' });
      await alice.waitForJob(first.jobId);
      const second = await alice.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex', year: 2024 });
      await alice.waitForJob(second.jobId);
      const res = await alice.get(`/api/v1/session/${sessionId}/documents`);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((d: { id: string }) => d.id)).to.deep.equal([second.jobId, first.jobId]);
      expect(res.body.data[0]).to.deep.equal((await alice.get(`/api/v1/ingest/${second.jobId}`)).body.data);
      expect(res.body.data[0]).to.include({ status: 'completed', filename: 'globex-fees.pdf', session_id: sessionId, pages: 1 });
      expect(res.body.data[0].tags).to.deep.equal({ institution: 'globex', year: '2024' });
      // Each document's kind is told once it is read (issue 49): a bank's fee schedule is none of the domain kinds.
      expect(res.body.data.map((d: { kind?: string }) => d.kind)).to.deep.equal(['other', 'other']);
      for (const [client, id] of [[bob, sessionId], [alice, 'no-such-session']] as const) {
        const missing = await client.get(`/api/v1/session/${id}/documents`);
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ error: 'Session not found' });
      }
    });

    it('removes a document: its chunks, file and record go, it is no longer cited; another session’s copy stays', async () => {
      const mine = await alice.createSession('remove');
      const other = await alice.createSession('other copy');
      const acme = await alice.uploadAndIngest(mine, 'acme-fees.pdf', ACME.bytes, 'application/pdf');
      const globex = await alice.uploadAndIngest(mine, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf');
      for (const id of [acme.jobId, globex.jobId]) expect((await alice.waitForJob(id)).status).to.equal('completed');
      // The same file ingested into another session (same key), and the same content uploaded again into this one.
      const shared = await alice.ingest(other, acme.key, 'acme-fees.pdf');
      expect((await alice.waitForJob(shared)).status).to.equal('completed');
      const twin = await alice.uploadAndIngest(mine, 'acme-again.pdf', ACME.bytes, 'application/pdf');
      expect(await alice.waitForJob(twin.jobId)).to.include({ status: 'completed', reusedFrom: acme.jobId });
      expect(await cited(mine)).to.include(acme.jobId);
      expect(await chunksOf(acme.jobId)).to.be.greaterThan(0);

      // Not through another user, nor through another session of the owner.
      for (const [client, session] of [[bob, mine], [alice, other]] as const) {
        const refused = await client.delete(`/api/v1/session/${session}/documents/${acme.jobId}`);
        expect(refused.status).to.equal(404);
        expect(refused.body).to.deep.equal({ error: 'Document not found' });
      }

      const res = await alice.delete(`/api/v1/session/${mine}/documents/${acme.jobId}`);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expect(await chunksOf(acme.jobId)).to.equal(0);
      expect((await alice.get(`/api/v1/ingest/${acme.jobId}`)).status).to.equal(404);
      // Its re-upload in this session reused its chunks and went with it; its own file is gone (no one else holds it).
      expect((await alice.get(`/api/v1/ingest/${twin.jobId}`)).status).to.equal(404);
      expect(await blobs().stat(twin.key)).to.equal(null);
      const listed = (await alice.get(`/api/v1/session/${mine}/documents`)).body.data.map((d: { id: string }) => d.id);
      expect(listed).to.deep.equal([globex.jobId]);
      const after = await cited(mine);
      expect(after.has(acme.jobId)).to.equal(false);
      expect(after.has(globex.jobId)).to.equal(true);

      // The other session still holds the shared file and its own chunks, and cites them.
      expect(await blobs().stat(acme.key)).to.not.equal(null);
      expect(await chunksOf(shared)).to.be.greaterThan(0);
      expect(await cited(other)).to.include(shared);
      expect((await alice.delete(`/api/v1/session/${mine}/documents/${acme.jobId}`)).status).to.equal(404);

      // Removing the last holder removes the file.
      expect((await alice.delete(`/api/v1/session/${other}/documents/${shared}`)).status).to.equal(204);
      expect(await blobs().stat(acme.key)).to.equal(null);
      expect(await chunksOf(shared)).to.equal(0);
    });

    it('answers "What is this document about?" from the documents’ openings, and no longer from a removed one', async () => {
      const sessionId = await alice.createSession('overview');
      const acme = await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' });
      const globex = await alice.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex' });
      for (const id of [acme.jobId, globex.jobId]) await alice.waitForJob(id);
      const ask = async (extra: Record<string, unknown> = {}) => {
        const res = await alice.post('/api/v1/chat/completions', { sessionId, message: 'What is this document about?', ...extra });
        expect(res.status, res.text).to.equal(200);
        return { answer: res.body.data as string, cited: new Set<string>(res.body.sources.map((x: { ingestId: string }) => x.ingestId)) };
      };
      const both = await ask();
      const onlyGlobex = await ask({ institution: 'globex' });
      if (stack.answerer === 'extractive') {
        expect(both.answer).to.include('Acme Bank charges a monthly maintenance fee of 12 dollars');
        expect(both.answer).to.include('Globex Credit Union charges a monthly maintenance fee of 3 dollars');
        expect([...both.cited].sort()).to.deep.equal([acme.jobId, globex.jobId].sort());
        expect(onlyGlobex.answer).to.not.include('Acme');
        expect([...onlyGlobex.cited]).to.deep.equal([globex.jobId]);
      }
      expect(onlyGlobex.cited.has(acme.jobId)).to.equal(false);
      expect((await alice.delete(`/api/v1/session/${sessionId}/documents/${acme.jobId}`)).status).to.equal(204);
      const after = await ask();
      expect(after.cited.has(acme.jobId)).to.equal(false);
      if (stack.answerer === 'extractive') expect(after.answer).to.not.include('Acme');
    });

    it('draws a page as an image for its owner: bounded, cached, 404 for pages that do not exist, 400 for a bad page', async () => {
      const sessionId = await alice.createSession('pages');
      const pdf = await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf');
      const jpeg = await alice.uploadAndIngest(sessionId, 'receipt.jpg', await photo(), 'image/jpeg');
      for (const id of [pdf.jobId, jpeg.jobId]) await alice.waitForJob(id);

      const page2 = await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/2`);
      expect(page2.status).to.equal(200);
      expect(page2.headers.get('content-type')).to.equal('image/png');
      expect(page2.headers.get('cache-control')).to.equal('private, max-age=3600');
      // Letter size (612 x 792 points) at the 1600-pixel bound on its longest side.
      expect(pngSize(page2.bytes)).to.deep.equal({ width: 1236, height: 1600 });
      const etag = page2.headers.get('etag')!;
      expect(etag).to.match(/^".+"$/);
      // As a browser revalidates its cached copy (fetch would otherwise add `Cache-Control: no-cache`, which forbids a 304).
      const again = await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/2`, { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' });
      expect(again.status).to.equal(304);
      expect(again.bytes.length).to.equal(0);
      // Pages differ, and `width` bounds the longest side (never above 1600, never below 100).
      const page1 = await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/1?width=400`);
      expect(pngSize(page1.bytes)).to.deep.equal({ width: 309, height: 400 });
      expect(pngSize((await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/1?width=99999`)).bytes).height).to.equal(1600);
      expect(Buffer.compare(page1.bytes, (await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/2?width=400`)).bytes)).to.not.equal(0);

      // A photo is its own page 1, scaled down to the bound, as JPEG.
      const photoPage = await alice.getBinary(`/api/v1/ingest/${jpeg.jobId}/pages/1`);
      expect(photoPage.status).to.equal(200);
      expect(photoPage.headers.get('content-type')).to.equal('image/jpeg');
      expect(readJpegHeader(photoPage.bytes)).to.include({ width: 1600, height: 1067 });

      for (const [id, page] of [[pdf.jobId, 3], [jpeg.jobId, 2]] as const) {
        const missing = await alice.getBinary(`/api/v1/ingest/${id}/pages/${page}`);
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ error: 'Page not found' });
      }
      for (const bad of ['0', 'x', '1.5', '-1']) {
        const res = await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/${bad}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body).to.deep.equal({ error: 'page: page must be a whole number from 1' });
      }
      expect((await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/1?width=wide`)).status).to.equal(400);
      for (const [client, id] of [[bob, pdf.jobId], [alice, 'no-such-job']] as const) {
        const foreign = await client.getBinary(`/api/v1/ingest/${id}/pages/1`);
        expect(foreign.status).to.equal(404);
        expect(foreign.body).to.deep.equal({ error: 'Ingest job not found' });
      }
      // A file that is not a readable PDF has no pages to show.
      const broken = await alice.uploadAndIngest(sessionId, 'broken.pdf', new TextEncoder().encode('%PDF-1.4\nnot really a pdf'), 'application/pdf');
      expect((await alice.waitForJob(broken.jobId)).status).to.equal('failed');
      const unreadable = await alice.getBinary(`/api/v1/ingest/${broken.jobId}/pages/1`);
      expect(unreadable.status).to.equal(404);
      expect(unreadable.body).to.deep.equal({ error: 'Page not found' });

      // Once the document is removed, its pages are gone too (the cache is never reached).
      expect((await alice.delete(`/api/v1/session/${sessionId}/documents/${pdf.jobId}`)).status).to.equal(204);
      expect((await alice.getBinary(`/api/v1/ingest/${pdf.jobId}/pages/2`)).status).to.equal(404);
    });

    it('finds a cited excerpt on its page for its owner, as areas of the page; [] on a photo; 400 for a bad text, 404 as for pages', async () => {
      const sessionId = await alice.createSession('passages');
      const pdf = await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf');
      const jpeg = await alice.uploadAndIngest(sessionId, 'receipt.jpg', await photo(), 'image/jpeg');
      for (const id of [pdf.jobId, jpeg.jobId]) await alice.waitForJob(id);
      const find = (client: typeof alice, id: string, page: number | string, text?: string) =>
        client.get(`/api/v1/ingest/${id}/pages/${page}/find${text === undefined ? '' : `?text=${encodeURIComponent(text)}`}`);

      // The excerpt an answer cites is found on the page it names.
      const answer = await alice.ask(sessionId, 'How much do international wire transfers cost?');
      const source = answer.body.sources.find((s: { ingestId: string }) => s.ingestId === pdf.jobId);
      expect(source, answer.text).to.include({ page: 2 });
      const found = await find(alice, pdf.jobId, source.page, source.excerpt);
      expect(found.status, found.text).to.equal(200);
      expect(found.headers.get('cache-control')).to.equal('private, max-age=3600');
      expect(found.body.data).to.have.length(1); // one line of text
      const [area] = found.body.data;
      expect(area.x).to.be.within(0, 0.3);
      expect(area.y).to.be.within(0, 0.5);
      expect(area.width).to.be.within(0.3, 1);
      expect(area.height).to.be.within(0.005, 0.05);
      // Not on page 1, nor anywhere on a photo.
      expect((await find(alice, pdf.jobId, 1, source.excerpt)).body).to.deep.equal({ data: [] });
      expect((await find(alice, jpeg.jobId, 1, source.excerpt)).body).to.deep.equal({ data: [] });

      const bad = await find(alice, pdf.jobId, 1, '   ');
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'text: the passage to find must not be blank' });
      expect((await find(alice, pdf.jobId, 1, 'x'.repeat(1001))).body).to.deep.equal({ error: 'text: the passage to find must be at most 1000 characters' });
      expect((await find(alice, pdf.jobId, 1)).status).to.equal(400);
      expect((await alice.get(`/api/v1/ingest/${pdf.jobId}/pages/1/find?text=a&text=b`)).status).to.equal(400);
      expect((await find(alice, pdf.jobId, '0', 'fees')).body).to.deep.equal({ error: 'page: page must be a whole number from 1' });
      for (const [id, page] of [[pdf.jobId, 3], [jpeg.jobId, 2]] as const) {
        expect((await find(alice, id, page, source.excerpt)).body).to.deep.equal({ error: 'Page not found' });
      }
      for (const [client, id] of [[bob, pdf.jobId], [alice, 'no-such-job']] as const) {
        const foreign = await find(client, id, 2, source.excerpt);
        expect(foreign.status).to.equal(404);
        expect(foreign.body).to.deep.equal({ error: 'Ingest job not found' });
      }
    });
  });
}
