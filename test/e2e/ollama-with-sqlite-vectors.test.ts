import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { FakeOllamaServer } from '../support/fake-ollama-server.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** OLLAMA_URL without CHROMA_URL: answers and embeddings from Ollama, vectors kept in SQLite next to the BM25 index. */
describe('HTTP API with Ollama and vectors in SQLite (no Chroma)', function () {
  this.timeout(60_000);
  let ollama: FakeOllamaServer;
  let t: TestService;
  let api: ApiClient;
  const vectors = (sessionId: string) =>
    (t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase).raw.prepare('SELECT count(*) AS n FROM chunk_vectors WHERE session_id = ?').get(sessionId) as { n: number }).n;

  before(async () => {
    ollama = await FakeOllamaServer.start();
    t = await startTestService({ OLLAMA_URL: ollama.url, OLLAMA_CHAT_MODEL: 'llama3.2', OLLAMA_EMBED_MODEL: 'nomic-embed-text' });
    api = await t.as('dana');
  });
  after(async () => {
    await t.close();
    await ollama.close();
  });

  it('embeds chunks into SQLite, answers through the model with sources, and deletes the vectors with the session', async () => {
    const sessionId = await api.createSession('sqlite vectors');
    const acme = await api.waitForJob((await api.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' })).jobId);
    await api.waitForJob((await api.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex' })).jobId);
    expect(acme.status).to.equal('completed');
    expect(vectors(sessionId)).to.be.greaterThanOrEqual(acme.chunks + 1);

    const res = await api.ask(sessionId, 'How much does an international wire transfer cost at Acme Bank?');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include('45 dollars');
    expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2 });
    const filtered = await api.ask(sessionId, 'What is the monthly maintenance fee?', 'globex');
    expect(filtered.body.sources.map((s: { filename: string }) => s.filename)).to.deep.equal(['globex-fees.pdf']);
    expect(ollama.embeddedInputs().some((input: string) => input.startsWith('search_query: '))).to.equal(true);

    expect((await api.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
    expect(vectors(sessionId)).to.equal(0);
  });

  it('readiness checks both Ollama models', async () => {
    const res = await t.anonymous.get('/api/v1/health/ready');
    expect(res.status).to.equal(200);
    expect(res.body.dependencies.map((d: { name: string }) => d.name)).to.include.members(['embedding model (Ollama)', 'chat model (Ollama)']);
  });
});
