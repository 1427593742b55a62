import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { AnswerPool, PooledLlm, PooledReranker } from '../../adapters/answer-pool/index.js';
import { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { Identity, IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { createHttpApp } from '../../server/http/app.js';
import { ApiClient } from '../support/api-client.js';
import { coreFixture } from '../support/core-fixture.js';
import { REPO_ROOT } from '../support/paths.js';
import { parseSamples, total } from '../support/prometheus-text.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';

/**
 * The chat route with the answer pool (docs/api.md, chat and Errors): the Koa app on the core's in-memory fakes, its
 * re-ranking and answers on real worker threads running the real worker, wrapped so that a question can crash its
 * thread ("CRASH THREAD") or hold it busy ("SPIN <ms>") (test/support/answer-pool-test-worker.ts).
 */

const TEST_WORKER = path.join(REPO_ROOT, 'test/support/answer-pool-test-worker.ts');
const DOCUMENT = 'The monthly maintenance fee is 12 dollars for a standard checking account. Foreign ATM withdrawals cost 3 dollars each.';
const FEE_QUESTION = 'What is the monthly maintenance fee?';

class TestIdentity implements IdentityVerifier {
  async verify(token: string): Promise<Identity> {
    const [head, user] = token.split('.');
    if (head !== 'tok' || !user) throw new UnauthenticatedError();
    return { userId: user };
  }
}

interface Setup {
  fx: ReturnType<typeof coreFixture>;
  pool: AnswerPool;
  baseUrl: string;
  sessions: Record<string, string>;
  client(user: string): ApiClient;
  metrics(): Promise<ReturnType<typeof parseSamples>>;
  close(): Promise<void>;
}

/** The app with a pool of `threads` and a queue of `maxQueued`, a cap of `perUser`; alice and bob each own a session. */
async function setUp(options: { threads: number; maxQueued: number; perUser: number }): Promise<Setup> {
  const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
  const pool = new AnswerPool({
    threads: options.threads, maxQueued: options.maxQueued, workerFile: TEST_WORKER,
    onQueueFull: () => metrics.questionRefusals.inc({ reason: 'queue_full' }),
  });
  metrics.watchPool('answer', () => pool.stats());
  const fx = coreFixture({ llm: new PooledLlm(pool), reranker: new PooledReranker(pool) });
  const sessions: Record<string, string> = {};
  for (const user of ['alice', 'bob']) sessions[user] = (await fx.sessionWithUpload(user, DOCUMENT, `${user}-fees.pdf`)).session.id;
  await fx.drain();
  const app = createHttpApp({
    docChat: fx.docChat, identity: new TestIdentity(), probes: [], corsOrigins: '*', logger: new RecordingLogger(),
    metrics, questionsPerUser: options.perUser,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    fx, pool, baseUrl, sessions,
    client: (user) => new ApiClient(baseUrl, `tok.${user}.sig`),
    metrics: async () => parseSamples(await (await fetch(`${baseUrl}/metrics`)).text()),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}

/** Resolves once the pool has `n` tasks running. */
async function untilRunning(pool: AnswerPool, n: number): Promise<void> {
  for (let i = 0; i < 1000 && pool.stats().inFlight < n; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(pool.stats().inFlight, 'tasks running').to.equal(n);
}

/** Sends a question over a raw connection and closes it once the question is on a thread: the client went away. */
async function askAndLeave(setup: Setup, user: string, message: string, accept: string): Promise<void> {
  const body = JSON.stringify({ sessionId: setup.sessions[user], message });
  const req = http.request(`${setup.baseUrl}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer tok.${user}.sig`, 'Content-Type': 'application/json', Accept: accept, 'Content-Length': Buffer.byteLength(body) },
  });
  req.on('error', () => undefined); // the socket we destroy
  req.end(body);
  await untilRunning(setup.pool, 1);
  req.destroy();
}

describe('chat with the answer pool over HTTP (worker threads, per-user cap, queue bound)', function () {
  this.timeout(60_000);

  describe('one pool of 3 threads, at most 2 questions of a user in progress', () => {
    let setup: Setup;
    before(async () => (setup = await setUp({ threads: 3, maxQueued: 50, perUser: 2 })));
    after(() => setup.close());

    it('a user over the cap gets 429 with Retry-After while another user’s questions are answered; the cap frees as answers finish', async () => {
      const alice = setup.client('alice');
      const bob = setup.client('bob');
      const busy = [1, 2].map(() => alice.ask(setup.sessions.alice, `SPIN 1500 ${FEE_QUESTION}`));
      await untilRunning(setup.pool, 2);
      const refused = await alice.ask(setup.sessions.alice, FEE_QUESTION);
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(refused.body).to.deep.equal({ success: false, error: 'Too many questions in progress (at most 2 at once); try again shortly' });
      const answered = await bob.ask(setup.sessions.bob, FEE_QUESTION);
      expect(answered.status).to.equal(200);
      expect(answered.body.data).to.include('12 dollars');
      expect(setup.pool.stats().inFlight, 'alice’s questions still running meanwhile').to.equal(2);
      for (const res of await Promise.all(busy)) expect(res.status).to.equal(200);
      expect((await alice.ask(setup.sessions.alice, FEE_QUESTION)).status, 'after her answers').to.equal(200);
      const samples = await setup.metrics();
      expect(total(samples, 'doc_chat_question_refusals_total', { reason: 'per_user_limit' })).to.equal(1);
      expect(total(samples, 'doc_chat_pool_threads', { pool: 'answer' })).to.equal(3);
    });

    it('a worker thread that crashes fails only its question (500, the chat body) and is replaced', async () => {
      const alice = setup.client('alice');
      const threads = setup.pool.threadIds();
      const [crashed, other] = await Promise.all([
        alice.ask(setup.sessions.alice, `CRASH THREAD ${FEE_QUESTION}`),
        setup.client('bob').ask(setup.sessions.bob, `SPIN 300 ${FEE_QUESTION}`),
      ]);
      expect(crashed.status).to.equal(500);
      expect(crashed.body).to.deep.equal({ success: false, error: 'Internal Server Error' });
      expect(other.status, 'the question beside it').to.equal(200);
      expect(setup.pool.threadIds()).to.have.length(3);
      expect(setup.pool.threadIds().filter((id) => !threads.includes(id)), 'threads replaced').to.have.length.greaterThan(0);
      const after = await alice.ask(setup.sessions.alice, FEE_QUESTION);
      expect(after.status).to.equal(200);
      expect(after.body.data).to.include('12 dollars');
    });
  });

  describe('one thread, a queue of 1', () => {
    let setup: Setup;
    beforeEach(async () => (setup = await setUp({ threads: 1, maxQueued: 1, perUser: 1 })));
    afterEach(() => setup.close());

    it('answers 503 with the chat body when the queue is full, and counts it', async () => {
      const running = setup.client('alice').ask(setup.sessions.alice, `SPIN 1500 ${FEE_QUESTION}`);
      await untilRunning(setup.pool, 1);
      const queued = setup.client('bob').ask(setup.sessions.bob, FEE_QUESTION);
      for (let i = 0; i < 500 && setup.pool.stats().queued < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const carol = setup.client('carol');
      const session = await carol.createSession('carol');
      // Carol's session has no documents: no hits to re-rank, her question goes straight to the answerer (the pool).
      const refused = await carol.ask(session, FEE_QUESTION);
      expect(refused.status).to.equal(503);
      expect(refused.body).to.deep.equal({ success: false, error: 'Service Unavailable' });
      expect((await running).status).to.equal(200);
      expect((await queued).status).to.equal(200);
      expect(total(await setup.metrics(), 'doc_chat_question_refusals_total', { reason: 'queue_full' })).to.equal(1);
    });

    for (const [kind, accept] of [['JSON', 'application/json'], ['server-sent events', 'text/event-stream']] as const) {
      it(`a ${kind} client that goes away frees the worker thread and its place under the cap; nothing is stored`, async () => {
        await askAndLeave(setup, 'alice', `SPIN 30000 ${FEE_QUESTION}`, accept);
        // The only thread was busy for 30 s: the next question, alice's own (cap 1), is answered long before that.
        const started = Date.now();
        const next = await setup.client('alice').ask(setup.sessions.alice, FEE_QUESTION);
        expect(next.status).to.equal(200);
        expect(Date.now() - started).to.be.below(15_000);
        const history = await setup.client('alice').get(`/api/v1/chat/history/${setup.sessions.alice}`);
        expect(history.body.data.map((m: { content: string }) => m.content), 'only the answered question').to.deep.equal([FEE_QUESTION, next.body.data]);
      });
    }
  });
});
