import { expect } from 'chai';
import { SEMANTIC_SEARCH_UNAVAILABLE_NOTE } from '../../core/rag/answer-notes.js';
import { ApiClient } from '../support/api-client.js';
import { pagedTextPdf } from '../support/generated-documents.js';
import { describeWithPostgres } from '../support/postgres-cluster.js';
import { declaredFamilies, parseSamples, total, type Sample } from '../support/prometheus-text.js';
import { embeddedStack, scaledStack, type Stack } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

/**
 * GET /metrics on the running service: after real requests, an ingestion and questions, each series family carries
 * what happened — on the embedded stack and on the scaled one (PostgreSQL, S3, Chroma, Ollama), where a `serve`
 * instance and a `worker` share the work and a stopped Chroma is counted as a dependency error.
 */

const PDF = 'application/pdf';
const PAGES = [
  ['Glaciers carve U-shaped valleys as they move downhill.'],
  ['Moraines are ridges of debris a glacier leaves behind.'],
  ['Ice ages alternate with warmer interglacial periods.'],
];
const DOCUMENT = await pagedTextPdf(PAGES);
const HISTORY_ROUTE = '/api/v1/chat/history/:sessionId';
const CHAT_ROUTE = '/api/v1/chat/completions';
const HISTORY_REQUESTS = 3;

const FAMILIES = [
  'doc_chat_http_request_duration_seconds',
  'doc_chat_ingest_jobs',
  'doc_chat_ingest_queue_wait_seconds',
  'doc_chat_extraction_duration_seconds',
  'doc_chat_pages_extracted_total',
  'doc_chat_index_search_duration_seconds',
  'doc_chat_dependency_errors_total',
];

async function scrape(client: ApiClient): Promise<{ text: string; samples: Sample[] }> {
  const res = await client.get('/metrics');
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return { text: res.text, samples: parseSamples(res.text) };
}

/** A user's session with the document ingested, its history read a few times, and a question asked twice (JSON, stream). */
async function exercise(api: ApiClient, app: ApiClient = api): Promise<{ sessionId: string; pages: number }> {
  const sessionId = await app.createSession('glaciers');
  const { jobId } = await app.uploadAndIngest(sessionId, 'glaciers.pdf', DOCUMENT, PDF);
  const job = await app.waitForJob(jobId);
  expect(job.status, JSON.stringify(job)).to.equal('completed');
  for (let i = 0; i < HISTORY_REQUESTS; i += 1) expect((await api.get(`/api/v1/chat/history/${sessionId}`)).status).to.equal(200);
  expect((await api.ask(sessionId, 'What do glaciers carve?')).status).to.equal(200);
  const streamed = await api.askStream({ sessionId, message: 'What are moraines?' });
  expect(streamed.status).to.equal(200);
  expect(streamed.events.map((e) => e.event)).to.include.members(['delta', 'done']);
  return { sessionId, pages: job.pages as number };
}

function expectRequestSeries(samples: Sample[], sessionId: string): void {
  const count = 'doc_chat_http_request_duration_seconds_count';
  expect(total(samples, count, { method: 'GET', route: HISTORY_ROUTE, status: '200' })).to.be.at.least(HISTORY_REQUESTS);
  // Both answers, the streamed one observed once its stream was written out.
  expect(total(samples, count, { method: 'POST', route: CHAT_ROUTE, status: '200' })).to.be.at.least(2);
  expect(total(samples, count, { method: 'GET', route: 'unmatched', status: '401' })).to.be.at.least(1);
  // Route patterns, never raw paths: no label carries the session id.
  const routes = samples.filter((s) => s.name === count).map((s) => s.labels.route);
  expect(routes.some((route) => route.includes(sessionId))).to.equal(false);
  expect(total(samples, 'doc_chat_http_request_duration_seconds_sum', { route: HISTORY_ROUTE })).to.be.greaterThan(0);
}

function expectIngestionSeries(samples: Sample[], pages: number): void {
  expect(total(samples, 'doc_chat_pages_extracted_total')).to.be.at.least(pages);
  expect(total(samples, 'doc_chat_extraction_duration_seconds_count', { outcome: 'completed' })).to.be.at.least(1);
  expect(total(samples, 'doc_chat_ingest_queue_wait_seconds_count')).to.be.at.least(1);
}

function expectSearchSeries(samples: Sample[], kinds: string[]): void {
  for (const index of kinds) expect(total(samples, 'doc_chat_index_search_duration_seconds_count', { index }), index).to.be.at.least(2);
}

describe('GET /metrics (Prometheus)', function () {
  this.timeout(120_000);

  describe('embedded stack', () => {
    const stack: Stack = embeddedStack();
    let t: TestService;
    after(() => stack.close());
    before(async () => {
      t = await stack.start();
    });

    it('carries every series family with what the requests, the ingestion and the questions did', async () => {
      const alice = await t.as('alice');
      expect((await t.anonymous.get('/api/v1/session/')).status).to.equal(401);
      const { sessionId, pages } = await exercise(alice);
      expect(pages).to.equal(PAGES.length);
      const { text, samples } = await scrape(t.anonymous);
      const families = declaredFamilies(text);
      for (const family of FAMILIES) expect(families.has(family), family).to.equal(true);
      expect(families.get('doc_chat_ingest_jobs')).to.equal('gauge');
      expect(total(samples, 'doc_chat_ingest_jobs', { state: 'completed' })).to.equal(1);
      expect(total(samples, 'doc_chat_ingest_jobs', { state: 'queued' })).to.equal(0);
      expectRequestSeries(samples, sessionId);
      expectIngestionSeries(samples, pages);
      expectSearchSeries(samples, ['lexical']);
      // Nothing was down.
      expect(total(samples, 'doc_chat_dependency_errors_total')).to.equal(0);
      expect(total(samples, 'doc_chat_process_cpu_user_seconds_total')).to.be.greaterThan(0);
    });

    it('counts a scrape among the requests, under its own route', async () => {
      const before = total((await scrape(t.anonymous)).samples, 'doc_chat_http_request_duration_seconds_count', { route: '/metrics' });
      const after = total((await scrape(t.anonymous)).samples, 'doc_chat_http_request_duration_seconds_count', { route: '/metrics' });
      expect(after).to.equal(before + 1);
    });

    it('with METRICS_TOKEN, answers only a request that carries it', async () => {
      const token = 'metrics-token-0123456789';
      const guarded = await stack.start({ METRICS_TOKEN: token });
      expect((await guarded.anonymous.get('/metrics')).status).to.equal(401);
      expect((await guarded.anonymous.withToken('metrics-token-wrong-45678').get('/metrics')).status).to.equal(401);
      // A user's API token is not the metrics token.
      expect((await (await guarded.as('alice')).get('/metrics')).status).to.equal(401);
      const { samples } = await scrape(guarded.anonymous.withToken(token));
      expect(total(samples, 'doc_chat_http_request_duration_seconds_count', { route: '/metrics', status: '401' })).to.equal(3);
    });
  });

  describeWithPostgres('scaled stack (PostgreSQL, S3, Chroma, Ollama)', () => {
    const stack = scaledStack();
    after(() => stack.close());

    describe('a serve instance and a worker on one database', () => {
      let serve: TestService;
      let worker: TestService;
      before(async () => {
        serve = await stack.start({ ROLE: 'serve', QUEUE_POLL_INTERVAL_MS: '200' });
        worker = await stack.start({ ROLE: 'worker', DATABASE_URL: serve.env.DATABASE_URL, QUEUE_POLL_INTERVAL_MS: '200', METRICS_PORT: '0' });
      });

      it('the serve instance times requests and searches; jobs by state come from the shared database', async () => {
        const alice = await serve.as('alice');
        expect((await serve.anonymous.get('/api/v1/session/')).status).to.equal(401);
        const { sessionId } = await exercise(alice);
        const { text, samples } = await scrape(serve.anonymous);
        for (const family of FAMILIES) expect(declaredFamilies(text).has(family), family).to.equal(true);
        expectRequestSeries(samples, sessionId);
        expectSearchSeries(samples, ['lexical', 'dense']);
        // Each query checked a connection out of its pool: history pages and ownership checks from `reads`, other
        // records from `records`, the questions' lexical searches from `search`; every pool is reported.
        expect(total(samples, 'doc_chat_database_connection_wait_seconds_count', { pool: 'reads' })).to.be.at.least(HISTORY_REQUESTS);
        expect(total(samples, 'doc_chat_database_connection_wait_seconds_count', { pool: 'records' })).to.be.at.least(1);
        expect(total(samples, 'doc_chat_database_connection_wait_seconds_count', { pool: 'search' })).to.be.at.least(2);
        const pools = samples.filter((s) => s.name === 'doc_chat_database_connections' && s.labels.state === 'waiting').map((s) => s.labels.pool);
        expect(pools.sort()).to.deep.equal(['reads', 'records', 'search']);
        expect(total(samples, 'doc_chat_ingest_jobs', { state: 'completed' })).to.be.at.least(1);
        // The worker extracted the document, not this instance.
        expect(total(samples, 'doc_chat_pages_extracted_total')).to.equal(0);
      });

      it('the worker, which has no API, is scraped on METRICS_PORT: queue wait, extraction, pages', async () => {
        expect(worker.service.url).to.equal('');
        const { samples } = await scrape(new ApiClient(worker.service.metricsUrl!));
        expectIngestionSeries(samples, PAGES.length);
        expect(total(samples, 'doc_chat_ingest_jobs', { state: 'completed' })).to.be.at.least(1);
        expect(total(samples, 'doc_chat_http_request_duration_seconds_count')).to.equal(0);
      });
    });

    describe('one instance (ROLE=all) while Chroma is down', () => {
      let t: TestService;
      before(async () => {
        t = await stack.start();
      });
      after(() => stack.restartDependency('chroma'));

      it('carries every series, then counts a question answered without Chroma as a Chroma error', async () => {
        const alice = await t.as('alice');
        expect((await t.anonymous.get('/api/v1/session/')).status).to.equal(401);
        const { sessionId, pages } = await exercise(alice);
        let { samples } = await scrape(t.anonymous);
        expectIngestionSeries(samples, pages);
        expect(total(samples, 'doc_chat_dependency_errors_total', { dependency: 'chroma' })).to.equal(0);

        await stack.stopDependency('chroma');
        // Answered from the lexical index alone (with a note), and Chroma's failure still counted.
        const answer = await alice.ask(sessionId, 'What do glaciers carve?');
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.body.data).to.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);
        ({ samples } = await scrape(t.anonymous));
        expect(total(samples, 'doc_chat_dependency_errors_total', { dependency: 'chroma' })).to.be.at.least(1);
        expect(total(samples, 'doc_chat_http_request_duration_seconds_count', { route: CHAT_ROUTE, status: '503' })).to.equal(0);
      });
    });
  });
});
