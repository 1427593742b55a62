import { expect } from 'chai';
import pg from 'pg';
import { LANGUAGE_MODEL_UNAVAILABLE_NOTE, SEMANTIC_SEARCH_UNAVAILABLE_NOTE } from '../../core/rag/answer-notes.js';
import { UPSTREAM_RETRY_AFTER_SECONDS } from '../../server/http/errors.js';
import type { ApiClient, ApiResponse } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { describeWithPostgres, stoppablePostgresCluster, type StoppablePostgresCluster } from '../support/postgres-cluster.js';
import { productionStack, READINESS_NAMES, type ProductionStack } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

/**
 * Issue 48, point 4: each dependency of the PostgreSQL deployment stopped under a running service, then started again
 * on the same port with the same data. Meanwhile the API answers 503 with Retry-After and the route's own error body
 * (never 500), readiness names what is down (or says "degraded" for what questions are answered without), and once
 * the part is back the service answers as before by itself: no restart, nothing lost.
 *
 * Real servers: a PostgreSQL cluster of the suite's own (so it can be stopped), s3rver, a Chroma server, and the HTTP
 * server answering as Ollama's API. Two instances on the one database: `t` as deployed by default, `fallback` with
 * ANSWER_FALLBACK=extractive.
 */

const PDF = 'application/pdf';
const QUESTION = 'How much does an international wire transfer cost at Acme Bank?';
const RETRY_AFTER = String(UPSTREAM_RETRY_AFTER_SECONDS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 503 bodies of the spec's routes (docs/api.md, "Errors"). */
const CHAT_503 = { success: false, error: 'Service Unavailable' };
const SESSION_CREATE_503 = { success: false, error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE' };
const default503 = (unavailable: string) => ({ error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE', unavailable });

function expect503(res: ApiResponse, body: Record<string, unknown>, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(503);
  expect(res.body, what).to.deep.equal(body);
  expect(res.headers.get('retry-after'), `${what}: Retry-After`).to.equal(RETRY_AFTER);
}

const TITLE = 'dependencies down and back under a running service (PostgreSQL, s3rver, Chroma, Ollama)';
describeWithPostgres(TITLE, () => describe(TITLE, function () {
  this.timeout(180_000);
  let cluster: StoppablePostgresCluster;
  let databaseUrl: string;
  let stack: ProductionStack;
  let t: TestService;
  let fallback: TestService;
  let alice: ApiClient;
  /** The same user on the instance with ANSWER_FALLBACK=extractive. */
  let aliceOnFallback: ApiClient;
  /** What was there before any outage, to compare with after each. */
  const earlier = {} as { sessionId: string; jobId: string; chunks: number; answer: string; firstSource: Record<string, unknown> };
  /** Exchanges answered (200) in the session since: the history must hold exactly these more, no refused one. */
  let answered = 0;

  /** Counts of the job's chunk rows in PostgreSQL: all of them, and distinct ids (each chunk once). */
  async function chunkRows(jobId: string): Promise<{ rows: number; distinct: number }> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS rows, count(DISTINCT id)::int AS distinct FROM chunks WHERE job_id = $1', [jobId]);
      return rows[0];
    } finally {
      await client.end();
    }
  }

  async function readiness(service: TestService = t) {
    const res = await service.anonymous.get('/api/v1/health/ready');
    return { status: res.status, body: res.body };
  }

  /** Readiness until it says 200 "ready" (a pool reconnects on its next query, a client on its next call). */
  async function untilReady(service: TestService = t): Promise<void> {
    for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
      const { status, body } = await readiness(service);
      if (status === 200 && body.status === 'ready') return;
      expect(Date.now(), `not ready again: ${JSON.stringify(body)}`).to.be.below(deadline);
    }
  }

  async function ask(api: ApiClient = alice): Promise<ApiResponse> {
    const res = await api.ask(earlier.sessionId, QUESTION);
    if (res.status === 200) answered++;
    return res;
  }

  /** The question asked for server-sent events: 200, deltas then sources and done, stored as streamed. */
  async function askStreamed(api: ApiClient): Promise<{ pieces: string[]; text: string }> {
    const res = await api.askStream({ sessionId: earlier.sessionId, message: QUESTION });
    expect(res.status, res.text).to.equal(200);
    expect(res.events.map((e) => e.event).slice(-2)).to.deep.equal(['sources', 'done']);
    const pieces = res.events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text as string);
    answered++;
    const history = await alice.get(`/api/v1/chat/history/${earlier.sessionId}`);
    expect(history.body.data.at(-1).content).to.equal(pieces.join(''));
    return { pieces, text: pieces.join('') };
  }

  /** Everything from before is there and answers the same; the history holds every answered exchange, in order. */
  async function expectNothingLost(): Promise<void> {
    const sessions = await alice.get('/api/v1/session/');
    expect(sessions.status, sessions.text).to.equal(200);
    expect(sessions.body.map((s: { id: string }) => s.id)).to.include(earlier.sessionId);
    const history = await alice.get(`/api/v1/chat/history/${earlier.sessionId}`);
    expect(history.status, history.text).to.equal(200);
    expect(history.body.data).to.have.length(2 * answered);
    expect(history.body.data.map((m: { role: string }) => m.role)).to.deep.equal(Array.from({ length: 2 * answered }, (_, i) => (i % 2 ? 'assistant' : 'user')));
    const job = await alice.get(`/api/v1/ingest/${earlier.jobId}`);
    expect(job.body.data).to.include({ status: 'completed', chunks: earlier.chunks });
    expect(await chunkRows(earlier.jobId)).to.deep.equal({ rows: earlier.chunks, distinct: earlier.chunks });
    expect(await stack.vectorRecordCount({ jobId: earlier.jobId })).to.equal(earlier.chunks);
    const res = await ask();
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.equal(earlier.answer);
    expect(res.body.sources[0]).to.deep.equal(earlier.firstSource);
  }

  before(async function () {
    this.timeout(120_000);
    cluster = stoppablePostgresCluster();
    databaseUrl = await cluster.createDatabase('faults');
    stack = productionStack();
    const shared = { DATABASE_URL: databaseUrl, QUEUE_POLL_INTERVAL_MS: '200', QUEUE_LEASE_SECONDS: '5' };
    t = await stack.start(shared);
    fallback = await stack.start({ ...shared, ROLE: 'serve', ANSWER_FALLBACK: 'extractive' });
    alice = await t.as('alice');
    aliceOnFallback = await fallback.as('alice');

    earlier.sessionId = await alice.createSession('before the outages');
    const { jobId } = await alice.uploadAndIngest(earlier.sessionId, 'acme-fees.pdf', ACME.bytes, PDF, { institution: 'acme' });
    const job = await alice.waitForJob(jobId, 30_000);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    Object.assign(earlier, { jobId, chunks: job.chunks });
    const res = await ask();
    expect(res.status, res.text).to.equal(200);
    earlier.answer = res.body.data;
    earlier.firstSource = res.body.sources[0];
    expect(earlier.firstSource).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: jobId });
    await untilReady(fallback);
  });

  after(async () => {
    await cluster?.start().catch(() => {});
    if (stack) for (const name of stack.dependencies) await stack.restartDependency(name).catch(() => {});
    await stack?.close();
    await cluster?.dropDatabase(databaseUrl).catch(() => {});
  });

  describe('PostgreSQL stopped in the middle of an ingestion', () => {
    let jobId: string;

    it('every call needing the records: 503, Retry-After, the route’s body; readiness names the database', async () => {
      const sessionId = await alice.createSession('ingesting during the database outage');
      const key = await alice.upload('globex-fees.pdf', GLOBEX.bytes, PDF);
      // The job waits on the embedding model while the database goes away, then has to write its chunks.
      stack.ollama.delay('/api/embed', 3_000);
      jobId = await alice.ingest(sessionId, key, 'globex-fees.pdf');
      for (const deadline = Date.now() + 30_000; (await alice.get(`/api/v1/ingest/${jobId}`)).body.data.stage !== 'embedding'; await sleep(20)) {
        expect(Date.now(), 'the job never reached its embedding step').to.be.below(deadline);
      }
      await cluster.stop();
      try {
        expect503(await alice.get('/api/v1/session/'), default503('database'), 'list sessions');
        expect503(await alice.post('/api/v1/session/', { label: 'x' }), SESSION_CREATE_503, 'create a session');
        expect503(await ask(), CHAT_503, 'chat');
        expect503(await aliceOnFallback.ask(earlier.sessionId, QUESTION), CHAT_503, 'chat with the answer fallback');
        expect503(await alice.get(`/api/v1/chat/history/${earlier.sessionId}`), default503('database'), 'history');
        expect503(await alice.get(`/api/v1/ingest/${jobId}`), default503('database'), 'job status');
        expect503(await alice.post('/api/v1/ingest/upload/url', { filename: 'a.pdf', contentType: PDF, contentSize: 100 }), default503('database'), 'upload URL');
        expect503(await alice.delete(`/api/v1/chat/${earlier.sessionId}`), default503('database'), 'clear the chat');
        const { status, body } = await readiness();
        expect(status).to.equal(503);
        expect(body).to.deep.include({ status: 'unavailable', unavailable: ['database'] });
        expect((await t.anonymous.get('/api/v1/health')).text).to.equal('up');
        // Let the job meet the outage: its embedding answers, and its writes find no database.
        await sleep(3_500);
      } finally {
        stack.ollama.clearFaults();
        await cluster.start();
      }
    });

    it('started again: ready by itself, the job completes with each chunk once, and nothing is lost', async () => {
      await untilReady();
      const job = await alice.waitForJob(jobId, 90_000);
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      // It met the outage (its writes failed) and was run again, not failed.
      expect(job.attempts, JSON.stringify(job)).to.be.at.least(2);
      expect(await chunkRows(jobId)).to.deep.equal({ rows: job.chunks, distinct: job.chunks });
      expect(await stack.vectorRecordCount({ jobId })).to.equal(job.chunks);
      await expectNothingLost();
    });
  });

  describe('the S3 server stopped', () => {
    let sessionId: string;
    let key: string;

    it('ingest: 503, Retry-After, naming object storage; readiness names it; questions are still answered', async () => {
      sessionId = await alice.createSession('ingesting during the storage outage');
      key = await alice.upload('globex-fees.pdf', GLOBEX.bytes, PDF);
      await stack.stopDependency('s3');
      const res = await alice.post('/api/v1/ingest/process', { key, filename: 'globex-fees.pdf', session_id: sessionId, tags: {} });
      expect503(res, default503('object storage'), 'ingest');
      const { status, body } = await readiness();
      expect(status).to.equal(503);
      expect(body).to.deep.include({ status: 'unavailable', unavailable: READINESS_NAMES.s3 });
      const answer = await ask();
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.data).to.equal(earlier.answer);
    });

    it('started again: ready by itself; the refused upload ingests; nothing is lost', async () => {
      await stack.restartDependency('s3');
      await untilReady();
      const job = await alice.waitForJob(await alice.ingest(sessionId, key, 'globex-fees.pdf'), 30_000);
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      await expectNothingLost();
    });
  });

  describe('the Chroma server stopped', () => {
    before(() => stack.stopDependency('chroma'));

    it('readiness: 200 "degraded" naming Chroma; questions answered from the lexical index, with a note', async () => {
      const { status, body } = await readiness();
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body).to.deep.include({ status: 'degraded', degraded: READINESS_NAMES.chroma });
      const res = await ask();
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include('45').and.match(new RegExp(`\\n\\n${escape(SEMANTIC_SEARCH_UNAVAILABLE_NOTE)}$`));
      expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
      const history = await alice.get(`/api/v1/chat/history/${earlier.sessionId}`);
      expect(history.body.data.at(-1).content).to.equal(res.body.data);
    });

    it('streamed: the same answer in pieces, the note last', async () => {
      const streamed = await askStreamed(alice);
      expect(streamed.pieces.at(-1)).to.equal(`\n\n${SEMANTIC_SEARCH_UNAVAILABLE_NOTE}`);
      expect(streamed.text).to.include('45');
    });

    it('started again: ready, semantic search again (no note), nothing lost', async () => {
      await stack.restartDependency('chroma');
      await untilReady();
      await expectNothingLost();
    });
  });

  describe('the Ollama server stopped', () => {
    before(() => stack.stopDependency('ollama'));

    it('by default: chat 503 with Retry-After and the chat body; readiness 503 naming both models', async () => {
      expect503(await ask(), CHAT_503, 'chat');
      const { status, body } = await readiness();
      expect(status).to.equal(503);
      expect(body.unavailable).to.have.members(READINESS_NAMES.ollama);
    });

    it('with ANSWER_FALLBACK=extractive: the extractive answer with notes; readiness 200 "degraded" naming both', async () => {
      const res = await ask(aliceOnFallback);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include('International wire transfers at Acme Bank cost 45 dollars each');
      expect(res.body.data).to.include(LANGUAGE_MODEL_UNAVAILABLE_NOTE).and.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);
      expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
      const streamed = await askStreamed(aliceOnFallback);
      expect(streamed.text).to.include('cost 45 dollars each').and.include(LANGUAGE_MODEL_UNAVAILABLE_NOTE);
      const { status, body } = await readiness(fallback);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.status).to.equal('degraded');
      expect(body.degraded).to.have.members(READINESS_NAMES.ollama);
    });

    it('started again: both instances ready and answering with the model again, nothing lost', async () => {
      await stack.restartDependency('ollama');
      await untilReady();
      await untilReady(fallback);
      const res = await ask(aliceOnFallback);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.equal(earlier.answer);
      await expectNothingLost();
    });
  });

  describe('after every outage', () => {
    it('no request ended in a 500 and no ingest job crashed, on either instance', async () => {
      for (const service of [t, fallback]) {
        const failures = service.logger.lines.filter(
          (l) => (l.message === 'request failed' && l.fields?.status === 500) || l.message === 'ingest job crashed',
        );
        expect(failures, JSON.stringify(failures, null, 2)).to.deep.equal([]);
      }
    });
  });
}));

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
