import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import type { DependencyProbe } from '../../core/ports/health-check.js';
import { createHttpApp } from '../../server/http/app.js';
import { ApiClient } from '../support/api-client.js';
import { coreFixture } from '../support/core-fixture.js';
import { RawConnection } from '../support/raw-http.js';
import { startTestService, TEST_JWT_SECRET, type TestService } from '../support/test-service.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';

const UNAUTHORIZED = { error: 'Unauthorized Access' };
// Short API timeouts so the tests see them act; the mocha timeout (and these waits) are far above them.
const SHORT_MS = 400;
const WAIT_MS = 5_000;

/** Issue 11, points 3, 4 and 8: one auth rule for every spelling of a path, slow clients cut, quiet 4xx, private readiness. */
describe('HTTP hardening', function () {
  this.timeout(20_000);

  describe('the auth gate matches paths as the routers do (any case, trailing slashes)', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService();
    });
    after(() => t.close());

    it('accepts a valid token on GET /API/V1/session/ and /Api/V1/Session', async () => {
      const alice = await t.as('alice');
      const id = await alice.createSession('case check');
      for (const path of ['/API/V1/session/', '/Api/V1/Session/', '/api/V1/SESSION/']) {
        const res = await alice.get(path);
        expect(res.status, path).to.equal(200);
        expect(res.body.map((s: { id: string }) => s.id), path).to.include(id);
      }
    });

    it('answers 401 (not 400) to an unauthenticated POST /API/V1/chat/completions with a bad body', async () => {
      for (const path of ['/API/V1/chat/completions', '/api/v1/CHAT/completions/', '/API/v1/ingest/process']) {
        const res = await t.anonymous.post(path, { nonsense: true });
        expect(res.status, path).to.equal(401);
        expect(res.body).to.deep.equal(UNAUTHORIZED);
      }
    });

    it('keeps the health routes public in every case', async () => {
      const res = await t.anonymous.get('/API/V1/HEALTH');
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('up');
    });
  });

  describe('slow and unfinished requests', () => {
    let t: TestService;
    let token: string;
    before(async () => {
      t = await startTestService({
        HTTP_HEADERS_TIMEOUT_MS: String(SHORT_MS), HTTP_BODY_TIMEOUT_MS: String(SHORT_MS), HTTP_IDLE_TIMEOUT_MS: String(SHORT_MS),
      });
      token = await signLocalToken(TEST_JWT_SECRET, 'alice');
    });
    after(() => t.close());

    function halfBody(method: string, path: string, headers: string): string {
      return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: 100\r\n\r\n${'{"label":"'.padEnd(50, 'x')}`;
    }

    it('answers 408 and closes when an API body declares 100 bytes and sends 50', async () => {
      const conn = await RawConnection.open(t.baseUrl);
      conn.write(halfBody('POST', '/api/v1/session/', `Authorization: Bearer ${token}\r\n`));
      expect(await conn.closedWithin(WAIT_MS), 'closed').to.equal(true);
      expect(conn.status).to.equal(408);
      expect(conn.text).to.include('{"error":"Request body not received in time"}');
      expect((await (await t.as('alice')).get('/api/v1/session/')).body).to.deep.equal([]);
      // One info line for the timeout; the handler that waited on the body ended too and added nothing (besides the
      // request log's own line per request).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refusals = t.logger.lines.filter((l) => l.message !== 'request completed');
      expect(refusals.map((l) => [l.level, l.message])).to.deep.equal([['info', 'request body not received in time']]);
    });

    it('closes the connection of a refused request whose body never finishes', async () => {
      const conn = await RawConnection.open(t.baseUrl);
      conn.write(halfBody('POST', '/api/v1/chat/completions', ''));
      expect(await conn.closedWithin(WAIT_MS), 'closed').to.equal(true);
      expect(conn.status).to.equal(401);
    });

    it('cuts a client that sends its headers too slowly', async () => {
      const conn = await RawConnection.open(t.baseUrl);
      conn.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const drip = setInterval(() => !conn.isClosed && conn.write('X-Slow: 1\r\n'), 50);
      try {
        expect(await conn.closedWithin(WAIT_MS), 'closed').to.equal(true);
      } finally {
        clearInterval(drip);
      }
      expect(conn.text).to.not.include('\r\n\r\nup');
    });

    it('closes a connection that never sends a request', async () => {
      const conn = await RawConnection.open(t.baseUrl);
      expect(await conn.closedWithin(WAIT_MS), 'closed').to.equal(true);
    });

    it('closes a keep-alive connection left idle after a request (well before Node’s 5 s default)', async () => {
      const conn = await RawConnection.open(t.baseUrl);
      conn.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(await conn.receivedWithin(/\r\n\r\nup$/, WAIT_MS), conn.text).to.equal(true);
      expect(conn.text).to.match(/keep-alive/i);
      expect(await conn.closedWithin(3_000), 'closed').to.equal(true);
    });

    it('gives the upload route its own long body timeout', async () => {
      const alice = await t.as('alice');
      const url = await alice.post('/api/v1/ingest/upload/url', { filename: 'slow.pdf', contentType: 'application/pdf', contentSize: 100 });
      expect(url.status, url.text).to.equal(200);
      const { pathname, search } = new URL(url.body.uploadData.signedUrl);
      const conn = await RawConnection.open(t.baseUrl);
      conn.write(`PUT ${pathname}${search} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\n\r\n${'%'.repeat(50)}`);
      // Several API body timeouts later the upload is still being received...
      expect(await conn.closedWithin(SHORT_MS * 4), 'closed early').to.equal(false);
      expect(conn.text).to.equal('');
      // ...and completes when the rest arrives.
      conn.write('%'.repeat(50));
      expect(await conn.receivedWithin(/\r\n\r\n\{"ok":true\}/, WAIT_MS), conn.text).to.equal(true);
      expect(conn.status).to.equal(200);
      conn.destroy();
    });
  });

  describe('failed authentications behind a trusted proxy (TRUST_PROXY)', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ TRUST_PROXY: 'true', AUTH_FAILURES_PER_MINUTE: '2' });
    });
    after(() => t.close());

    it('counts per address the proxy appended to X-Forwarded-For, ignoring what the client wrote before it', async () => {
      const bogus = new ApiClient(t.baseUrl, await signLocalToken('some-other-secret-0123456789abcdef', 'mallory'));
      const from = (xff: string) => bogus.request('GET', '/api/v1/session/', undefined, { 'X-Forwarded-For': xff });
      expect((await from('198.51.100.1')).status).to.equal(401);
      expect((await from('203.0.113.9, 198.51.100.1')).status).to.equal(401);
      for (const xff of ['198.51.100.1', '203.0.113.50, 198.51.100.1', '198.51.100.2, 198.51.100.1']) {
        const res = await from(xff);
        expect(res.status, xff).to.equal(429);
        expect(res.body).to.deep.equal({ error: 'Too many failed authentications from this address; try again later', code: 'RATE_LIMITED' });
      }
      // Another client behind the same proxy is not affected.
      expect((await from('198.51.100.2')).status).to.equal(401);
      const alice = await t.as('alice');
      expect((await alice.request('GET', '/api/v1/session/', undefined, { 'X-Forwarded-For': '198.51.100.3' })).status).to.equal(200);
    });
  });

  describe('logging of refused requests', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService();
    });
    after(() => t.close());

    /** The lines about one request, besides the request log's own `request completed` line. */
    const linesFor = (requestId: string | null) =>
      t.logger.lines.filter((l) => l.fields?.requestId === requestId && l.message !== 'request completed');

    it('logs a 4xx at info, never at error', async () => {
      const alice = await t.as('alice');
      const res = await alice.request('POST', '/api/v1/session/', '{"label": "unterminated', { 'Content-Type': 'application/json' });
      expect(res.status).to.equal(400);
      const lines = linesFor(res.headers.get('x-request-id'));
      expect(lines).to.have.length(1);
      expect(lines[0]).to.deep.include({ level: 'info' });
      expect(lines[0].fields).to.include({ status: 400, method: 'POST', path: '/api/v1/session/' });
      const refused = await t.anonymous.get('/api/v1/session/');
      expect(linesFor(refused.headers.get('x-request-id')).map((l) => [l.level, l.fields?.status])).to.deep.equal([['info', 401]]);
    });

    it('answers a body that fails to decompress with 400, logged at info', async () => {
      const alice = await t.as('alice');
      for (const body of ['{"label":"not gzip at all"}', gzipSync('{"label":"cut short"}').subarray(0, 15)]) {
        const res = await alice.request('POST', '/api/v1/session/', body as string, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        expect(res.status, res.text).to.equal(400);
        expect(res.body).to.deep.equal({ error: 'Request body could not be decompressed' });
        expect(linesFor(res.headers.get('x-request-id')).map((l) => l.level)).to.deep.equal(['info']);
      }
      expect(t.logger.lines.filter((l) => l.level === 'error')).to.deep.equal([]);
    });
  });

  describe('public readiness', () => {
    const fx = coreFixture();
    const logger = new RecordingLogger();
    const DETAIL = 'connect ECONNREFUSED 10.20.30.40:8333 (http://seaweedfs.internal:8333)';
    let server: Server;
    let anonymous: ApiClient;
    const down = { store: true, index: false };
    before(async () => {
      const probes: DependencyProbe[] = [
        { name: 'database', check: async () => {} },
        { name: 'object storage (S3)', check: async () => (down.store ? Promise.reject(new Error(DETAIL)) : undefined) },
        // Questions are answered without it (from the lexical index): down, it makes the service degraded, not unready.
        { name: 'vector index (Chroma)', check: async () => (down.index ? Promise.reject(new Error('fetch failed')) : undefined), whenDown: 'degraded' },
      ];
      const app = createHttpApp({ docChat: fx.docChat, identity: { verify: async () => ({ userId: 'x' }) }, probes, corsOrigins: '*', logger });
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      anonymous = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('names only the dependency that failed; the details go to the log', async () => {
      const res = await anonymous.get('/api/v1/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({
        status: 'unavailable',
        unavailable: ['object storage (S3)'],
        dependencies: [{ name: 'database', ok: true }, { name: 'object storage (S3)', ok: false }, { name: 'vector index (Chroma)', ok: true }],
      });
      expect(res.text).to.not.include('10.20.30.40').and.not.include('ECONNREFUSED').and.not.include('seaweedfs.internal');
      const logged = logger.lines.filter((l) => l.message === 'readiness probe failed');
      expect(logged).to.have.length(1);
      expect(logged[0].level).to.equal('warn');
      expect(logged[0].fields).to.deep.include({ dependency: 'object storage (S3)' });
      expect(String(logged[0].fields?.error)).to.include(DETAIL);
    });

    it('a dependency the service answers without: 200 "degraded" naming it; with another down too, 503 naming each', async () => {
      try {
        down.index = true;
        const both = await anonymous.get('/api/v1/health/ready');
        expect(both.status).to.equal(503);
        expect(both.body).to.deep.include({ status: 'unavailable', unavailable: ['object storage (S3)'], degraded: ['vector index (Chroma)'] });
        down.store = false;
        const degraded = await anonymous.get('/api/v1/health/ready');
        expect(degraded.status).to.equal(200);
        expect(degraded.body).to.deep.equal({
          status: 'degraded',
          degraded: ['vector index (Chroma)'],
          dependencies: [{ name: 'database', ok: true }, { name: 'object storage (S3)', ok: true }, { name: 'vector index (Chroma)', ok: false }],
        });
        down.index = false;
        const ready = await anonymous.get('/api/v1/health/ready');
        expect(ready.status).to.equal(200);
        expect(ready.body).to.include({ status: 'ready' }).and.not.have.property('degraded');
      } finally {
        Object.assign(down, { store: true, index: false });
      }
    });
  });
});
