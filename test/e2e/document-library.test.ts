import { expect } from 'chai';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import type { BlobStore } from '../../core/ports/blob-store.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const QUESTION = 'What is the monthly maintenance fee on checking accounts?';

// The document library and the record search over HTTP, on every stack: SQLite FTS5 + local files, SQLite + Chroma +
// S3 (s3rver), and PostgreSQL's index + Chroma + S3 where PostgreSQL runs.
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();

  describe(`document library and search over HTTP (${stack.name} stack)`, function () {
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
    const chunksOf = async (jobId: string) => Promise.all(indexes().map((i) => i.count({ jobId })));

    it('lists the user’s documents once per content with their sessions, adds one to another session without reading it', async () => {
      const first = await alice.createSession('library first');
      const second = await alice.createSession('library second');
      const acme = await alice.uploadAndIngest(first, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' });
      expect((await alice.waitForJob(acme.jobId)).status).to.equal('completed');
      const library = await alice.get('/api/v1/documents');
      expect(library.status).to.equal(200);
      const doc = library.body.data.find((d: { filename: string }) => d.filename === 'acme-fees.pdf');
      expect(doc.id).to.match(/^[0-9a-f]{64}$/);
      expect(doc.sessions).to.have.length(1);
      expect(doc.sessions[0]).to.include({ sessionId: first, label: 'library first', ingestId: acme.jobId });
      expect(library.body.truncated).to.equal(false);

      const added = await alice.post(`/api/v1/session/${second}/documents`, { documentId: doc.id });
      expect(added.status, added.text).to.equal(201);
      expect(added.body.data).to.include({ status: 'completed', filename: 'acme-fees.pdf', session_id: second, copiedFrom: acme.jobId });
      expect(added.body.data.tags).to.deep.equal({ institution: 'acme' });
      const copy = added.body.data.id as string;
      // Every index holds the copy as it holds the original.
      expect(await chunksOf(copy)).to.deep.equal(await chunksOf(acme.jobId));
      expect((await chunksOf(copy)).every((n) => n > 0)).to.equal(true);
      // Asked in the second session, answered from the copy.
      const answer = await alice.post('/api/v1/chat/completions', { sessionId: second, message: QUESTION });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.sources.map((s: { ingestId: string }) => s.ingestId)).to.include(copy);
      // Again: 200 with the same job, nothing added.
      const again = await alice.post(`/api/v1/session/${second}/documents`, { documentId: doc.id });
      expect(again.status).to.equal(200);
      expect(again.body.data.id).to.equal(copy);
      expect((await alice.get(`/api/v1/session/${second}/documents`)).body.data.map((d: { id: string }) => d.id)).to.deep.equal([copy]);
      const listed = (await alice.get('/api/v1/documents')).body.data.find((d: { id: string }) => d.id === doc.id);
      expect(listed.sessions.map((h: { sessionId: string }) => h.sessionId)).to.deep.equal([first, second]);

      // Removed from the first session: the copy still answers, the file is kept.
      expect((await alice.delete(`/api/v1/session/${first}/documents/${acme.jobId}`)).status).to.equal(204);
      expect((await chunksOf(copy)).every((n) => n > 0)).to.equal(true);
      expect(await t.service.container.get<BlobStore>(TOKENS.BlobStore).stat(acme.key)).to.not.equal(null);
      const still = await alice.post('/api/v1/chat/completions', { sessionId: second, message: QUESTION });
      expect(still.body.sources.map((s: { ingestId: string }) => s.ingestId)).to.include(copy);
      const page = await alice.getBinary(`/api/v1/ingest/${copy}/pages/1?width=200`);
      expect(page.status).to.equal(200);
    });

    it('is owner-only: another user’s document or session is not found; bad bodies are refused', async () => {
      const mine = await alice.createSession('owner only');
      const globex = await alice.uploadAndIngest(mine, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf');
      expect((await alice.waitForJob(globex.jobId)).status).to.equal('completed');
      const documentId = (await alice.get('/api/v1/documents')).body.data.find((d: { filename: string }) => d.filename === 'globex-fees.pdf').id;
      const bobs = await bob.createSession('bob’s');
      expect((await bob.get('/api/v1/documents')).body.data.map((d: { id: string }) => d.id)).to.not.include(documentId);
      const foreignDocument = await bob.post(`/api/v1/session/${bobs}/documents`, { documentId });
      expect(foreignDocument.status).to.equal(404);
      expect(foreignDocument.body).to.deep.equal({ error: 'Document not found' });
      const foreignSession = await alice.post(`/api/v1/session/${bobs}/documents`, { documentId });
      expect(foreignSession.status).to.equal(404);
      expect(foreignSession.body).to.deep.equal({ error: 'Session not found' });
      for (const body of [{}, { documentId: 42 }, { documentId: 'abc' }, { documentId: documentId.toUpperCase() }, []]) {
        const refused = await alice.post(`/api/v1/session/${mine}/documents`, body);
        expect(refused.status, JSON.stringify(body)).to.equal(400);
        expect(refused.body.error).to.match(/documentId|JSON object/);
      }
      expect((await bob.get(`/api/v1/session/${bobs}/documents`)).body.data).to.deep.equal([]);
    });

    it('searches the user’s own sessions and messages; 400 for an empty or over-long query', async () => {
      const session = await alice.createSession('Checking account fees');
      const acme = await alice.uploadAndIngest(session, 'acme-fees.pdf', ACME.bytes, 'application/pdf');
      await alice.waitForJob(acme.jobId);
      expect((await alice.post('/api/v1/chat/completions', { sessionId: session, message: QUESTION })).status).to.equal(200);
      const named = await alice.get('/api/v1/search?q=checking%20fees');
      expect(named.status).to.equal(200);
      expect(named.body.data.sessions.map((s: { sessionId: string }) => s.sessionId)).to.include(session);
      const found = await alice.get('/api/v1/search?q=maintenance%20fees');
      expect(found.body.data.sessions).to.deep.equal([]);
      const question = found.body.data.messages.find((m: { role: string; sessionId: string }) => m.role === 'user' && m.sessionId === session);
      expect(question).to.include({ sessionLabel: 'Checking account fees' });
      expect(question.excerpt).to.match(/maintenance fee/);
      expect((await bob.get('/api/v1/search?q=maintenance%20fees')).body).to.deep.equal({ data: { sessions: [], messages: [] } });
      for (const q of ['', '%20%20', 'a'.repeat(201)]) {
        const refused = await alice.get(`/api/v1/search?q=${q}`);
        expect(refused.status, q).to.equal(400);
      }
      expect((await alice.get('/api/v1/search')).status).to.equal(400);
      expect((await alice.get('/api/v1/search?q=a&q=b')).status).to.equal(400);
    });
  });
}
