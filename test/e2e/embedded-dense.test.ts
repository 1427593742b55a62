import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** EMBEDDED_DENSE=on: the embedded stack with a second, dense index in SQLite, fed by hashed embeddings (no model). */
describe('HTTP API with the embedded dense index (EMBEDDED_DENSE=on)', function () {
  this.timeout(60_000);
  let t: TestService;
  let api: ApiClient;
  const vectors = (sessionId: string) =>
    (t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase).raw.prepare('SELECT count(*) AS n FROM chunk_vectors WHERE session_id = ?').get(sessionId) as { n: number }).n;

  before(async () => {
    t = await startTestService({ EMBEDDED_DENSE: 'on' });
    api = await t.as('erin');
  });
  after(async () => {
    await t?.close();
  });

  it('embeds every chunk into SQLite, answers from the fused hits, and deletes the vectors with the session', async () => {
    const sessionId = await api.createSession('embedded vectors');
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

    expect((await api.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
    expect(vectors(sessionId)).to.equal(0);
  });

  it('is off by default, and refused where another dense index or a shared database is configured', () => {
    expect(loadConfig({}).embeddedDense).to.equal(false);
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).to.be.instanceOf(ConfigError);
        return (error as Error).message;
      }
      return expect.fail('expected a ConfigError');
    };
    expect(refusal({ EMBEDDED_DENSE: 'yes' })).to.equal('EMBEDDED_DENSE: must be off or on (got "yes")');
    expect(refusal({ EMBEDDED_DENSE: 'on', OLLAMA_URL: 'http://ollama:11434' })).to.match(/^EMBEDDED_DENSE: cannot be on with OLLAMA_URL/);
    expect(refusal({ EMBEDDED_DENSE: 'on', DATABASE_URL: 'postgres://db/x' })).to.match(/^EMBEDDED_DENSE: cannot be on with DATABASE_URL/);
  });
});
