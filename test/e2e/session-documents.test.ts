import { expect } from 'chai';
import type { BlobStore } from '../../core/ports/blob-store.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const QUESTION = 'What is the monthly maintenance fee on checking accounts?';

// Listing and removing a session's documents, on every stack: SQLite FTS5 + local files, SQLite + Chroma + MinIO
// (s3rver), and PostgreSQL's index + Chroma + MinIO where PostgreSQL runs.
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
  });
}
