import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { UnauthenticatedError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import { UPSTREAM_RETRY_AFTER_SECONDS } from '../../server/http/errors.js';
import type { Identity, IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { createHttpApp } from '../../server/http/app.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { coreFixture } from '../support/core-fixture.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';

/**
 * Error bodies over HTTP, per route (docs/api.md, Errors): the Koa app on the core's in-memory fakes,
 * with ports and the identity verifier made to fail on purpose.
 */

/** Tokens look like JWTs (`tok.<user>.sig`) and name their user; `failure`, when set, is thrown instead. */
class TestIdentity implements IdentityVerifier {
  failure: unknown = null;

  async verify(token: string): Promise<Identity> {
    if (this.failure !== null) throw this.failure;
    const [head, user] = token.split('.');
    if (head !== 'tok' || !user) throw new UnauthenticatedError();
    return { userId: user };
  }
}

const token = (user: string) => `tok.${user}.sig`;

const SECRET = 'SQLITE_CORRUPT: database disk image is malformed at /var/secret/db.sqlite';
const CHAT_500 = { success: false, error: 'Internal Server Error' };
const SESSION_CREATE_500 = { success: false, error: 'Internal Server Error', code: 'INTERNAL' };
const DEFAULT_500 = { error: 'Internal Server Error', code: 'INTERNAL' };
const UNAUTHORIZED = { error: 'Unauthorized Access' };

describe('HTTP error bodies per route (core on in-memory fakes)', () => {
  const fx = coreFixture();
  const identity = new TestIdentity();
  const log = new RecordingLogger();
  let server: Server;
  let alice: ApiClient;
  let anonymous: ApiClient;
  const restores: (() => void)[] = [];

  before(async () => {
    const app = createHttpApp({ docChat: fx.docChat, identity, probes: [], corsOrigins: '*', logger: log });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    alice = new ApiClient(baseUrl, token('alice'));
    anonymous = new ApiClient(baseUrl);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    identity.failure = null;
    while (restores.length > 0) restores.pop()!();
  });

  /** Makes one method of a port (an in-memory fake) throw `error` until the end of the test. */
  function breakPort<T extends object>(port: T, method: keyof T, error: unknown): void {
    const own = Object.prototype.hasOwnProperty.call(port, method);
    const original = port[method];
    port[method] = (async () => {
      throw error;
    }) as T[keyof T];
    restores.push(() => (own ? (port[method] = original) : delete port[method]));
  }

  /** The lines logged under a response's X-Request-Id besides its request log line, which every request gets. */
  function linesBesidesRequestLog(res: ApiResponse) {
    const requestId = res.headers.get('x-request-id');
    expect(requestId, 'X-Request-Id').to.be.a('string').and.not.equal('');
    const lines = log.lines.filter((l) => l.fields?.requestId === requestId);
    const requestLines = lines.filter((l) => l.message === 'request completed');
    expect(requestLines.map((l) => [l.level, l.fields?.status]), 'the request log line').to.deep.equal([['info', res.status]]);
    return lines.filter((l) => l.message !== 'request completed');
  }

  /** The one error line logged under the response's X-Request-Id (its status and error text). */
  function loggedLine(res: ApiResponse) {
    const lines = linesBesidesRequestLog(res);
    expect(lines, `log lines for ${res.headers.get('x-request-id')}`).to.have.length(1);
    expect(lines[0].level).to.equal('error');
    expect(lines[0].fields?.status).to.equal(res.status);
    return lines[0];
  }

  /** A client's mistake: one info line under its X-Request-Id besides the request line (never error: anyone can send these). */
  function expectLoggedAtInfo(res: ApiResponse): void {
    const lines = linesBesidesRequestLog(res);
    expect(lines.map((l) => [l.level, l.fields?.status])).to.deep.equal([['info', res.status]]);
  }

  function expectNoLeak(res: ApiResponse): void {
    expect(res.text).to.not.include('SQLITE_CORRUPT').and.not.include('/var/secret');
    expect(res.text).to.not.match(/\n\s+at |\.ts:\d+/);
  }

  const validBodies = {
    chat: { sessionId: 'some-session', message: 'What is the fee?' },
    session: { label: 'Quarterly reports' },
    uploadUrl: { filename: 'a.pdf', contentType: 'application/pdf', contentSize: 10 },
    ingest: { key: 'alice/id-a.pdf', filename: 'a.pdf', session_id: 'some-session', tags: {} },
  };

  describe('an unexpected failure in a port (a plain Error)', () => {
    const cases: [string, string, string, unknown, () => void, Record<string, unknown>][] = [
      ['POST', '/api/v1/chat/completions', 'chat', validBodies.chat, () => breakPort(fx.sessions, 'findById', new Error(SECRET)), CHAT_500],
      ['POST', '/api/v1/session/', 'session create', validBodies.session, () => breakPort(fx.sessions, 'create', new Error(SECRET)), SESSION_CREATE_500],
      ['POST', '/api/v1/ingest/upload/url', 'upload URL', validBodies.uploadUrl, () => breakPort(fx.blobs, 'createUploadUrl', new Error(SECRET)), DEFAULT_500],
      ['POST', '/api/v1/ingest/process', 'ingest', validBodies.ingest, () => breakPort(fx.sessions, 'findById', new Error(SECRET)), DEFAULT_500],
      ['GET', '/api/v1/session/', 'session list', undefined, () => breakPort(fx.sessions, 'listByUser', new Error(SECRET)), DEFAULT_500],
    ];
    for (const [method, path, name, body, breakIt, expected] of cases) {
      it(`${name} (${method} ${path}): 500 ${JSON.stringify(expected)}, logged under X-Request-Id, nothing leaked`, async () => {
        breakIt();
        const res = await alice.request(method, path, body);
        expect(res.status, res.text).to.equal(500);
        expect(res.body).to.deep.equal(expected);
        expectNoLeak(res);
        expect(loggedLine(res).fields?.error).to.include(SECRET);
      });
    }
  });

  describe('DELETE /api/v1/chat/:id', () => {
    it('a chat repo failure: 400 "Session deletion failed", logged under X-Request-Id', async () => {
      const session = await fx.docChat.createSession.execute({ userId: 'alice', label: 'to clear' });
      breakPort(fx.chats, 'deleteBySession', new Error(SECRET));
      const res = await alice.delete(`/api/v1/chat/${session.id}`);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Session deletion failed' });
      expectNoLeak(res);
      expect(loggedLine(res).fields?.error).to.include(SECRET);
    });

    it('an unknown or another user’s session is still 404 "Session not found", logged at info', async () => {
      const bobs = await fx.docChat.createSession.execute({ userId: 'bob', label: 'bob’s' });
      breakPort(fx.chats, 'deleteBySession', new Error(SECRET));
      for (const id of ['no-such-session', bobs.id]) {
        const res = await alice.delete(`/api/v1/chat/${id}`);
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Session not found' });
        expectLoggedAtInfo(res);
      }
    });
  });

  describe('failures during authentication get the route’s body', () => {
    const outage = () => new UpstreamUnavailableError('identity provider', 'the identity provider did not answer');
    const unavailable = (extra: Record<string, unknown>) => ({ error: 'Service Unavailable', ...extra });
    const upstreamCases: [string, string, unknown, Record<string, unknown>][] = [
      ['POST', '/api/v1/chat/completions', validBodies.chat, { success: false, error: 'Service Unavailable' }],
      // The routers also match a trailing slash and any case; so does the choice of body.
      ['POST', '/api/v1/Chat/Completions/', validBodies.chat, { success: false, error: 'Service Unavailable' }],
      ['POST', '/api/v1/session/', validBodies.session, unavailable({ success: false, code: 'UPSTREAM_UNAVAILABLE' })],
      ['GET', '/api/v1/session/', undefined, unavailable({ code: 'UPSTREAM_UNAVAILABLE', unavailable: 'identity provider' })],
      ['POST', '/api/v1/ingest/upload/url', validBodies.uploadUrl, unavailable({ code: 'UPSTREAM_UNAVAILABLE', unavailable: 'identity provider' })],
      ['DELETE', '/api/v1/chat/some-session', undefined, unavailable({ code: 'UPSTREAM_UNAVAILABLE', unavailable: 'identity provider' })],
    ];
    for (const [method, path, body, expected] of upstreamCases) {
      it(`identity provider unavailable, ${method} ${path}: 503 ${JSON.stringify(expected)}, Retry-After, logged`, async () => {
        identity.failure = outage();
        const res = await alice.request(method, path, body);
        expect(res.status, res.text).to.equal(503);
        expect(res.body).to.deep.equal(expected);
        expect(res.headers.get('retry-after')).to.equal(String(UPSTREAM_RETRY_AFTER_SECONDS));
        loggedLine(res);
      });
    }

    const crashCases: [string, string, unknown, Record<string, unknown>][] = [
      ['POST', '/api/v1/chat/completions', validBodies.chat, CHAT_500],
      ['POST', '/api/v1/session/', validBodies.session, SESSION_CREATE_500],
      ['GET', '/api/v1/session/', undefined, DEFAULT_500],
    ];
    for (const [method, path, body, expected] of crashCases) {
      it(`the verifier throws a plain Error, ${method} ${path}: 500 ${JSON.stringify(expected)}, logged, nothing leaked`, async () => {
        identity.failure = new Error(SECRET);
        const res = await alice.request(method, path, body);
        expect(res.status, res.text).to.equal(500);
        expect(res.body).to.deep.equal(expected);
        expectNoLeak(res);
        expect(loggedLine(res).fields?.error).to.include(SECRET);
      });
    }

    it('401 stays exactly { error: "Unauthorized Access" } on every route, logged at info', async () => {
      const refused = new ApiClient(alice.baseUrl, 'not.a-known.token');
      const routes: [string, string, unknown][] = [
        ['POST', '/api/v1/chat/completions', validBodies.chat],
        ['POST', '/api/v1/session/', validBodies.session],
        ['DELETE', '/api/v1/chat/some-session', undefined],
        ['GET', '/api/v1/session/', undefined],
        ['POST', '/api/v1/ingest/process', validBodies.ingest],
      ];
      for (const client of [anonymous, refused]) {
        for (const [method, path, body] of routes) {
          const res = await client.request(method, path, body);
          expect(res.status, `${method} ${path}`).to.equal(401);
          expect(res.body).to.deep.equal(UNAUTHORIZED);
          expectLoggedAtInfo(res);
        }
      }
    });
  });

  describe('body-parser errors versus other errors carrying a status', () => {
    it('an Error with status 418 (and expose, type) thrown by a port is unexpected: 500 with the route’s body, logged', async () => {
      const teapot = Object.assign(new Error(SECRET), { status: 418, expose: true, type: 'entity.parse.failed' });
      breakPort(fx.sessions, 'listByUser', teapot);
      breakPort(fx.sessions, 'create', teapot);
      for (const [method, path, body, expected] of [
        ['GET', '/api/v1/session/', undefined, DEFAULT_500],
        ['POST', '/api/v1/session/', validBodies.session, SESSION_CREATE_500],
      ] as const) {
        const res = await alice.request(method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(500);
        expect(res.body).to.deep.equal(expected);
        expectNoLeak(res);
        loggedLine(res);
      }
    });

    it('a thrown non-Error object with status 400 is unexpected too: 500, not "Malformed JSON body"', async () => {
      breakPort(fx.sessions, 'findById', { status: 400, message: SECRET });
      const res = await alice.post('/api/v1/chat/completions', validBodies.chat);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal(CHAT_500);
      expectNoLeak(res);
      loggedLine(res);
    });

    it('malformed JSON on PATCH /api/v1/session/:id: 400 "Malformed JSON body", logged at info', async () => {
      const session = await fx.docChat.createSession.execute({ userId: 'alice', label: 'keep' });
      const res = await alice.request('PATCH', `/api/v1/session/${session.id}`, '{"label": "unterminated', { 'Content-Type': 'application/json' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Malformed JSON body' });
      expectLoggedAtInfo(res);
      expect((await fx.sessions.findById(session.id))?.label).to.equal('keep');
    });

    it('bodies are read on POST, PUT and PATCH only: a malformed JSON body on DELETE is ignored, not refused', async () => {
      const session = await fx.docChat.createSession.execute({ userId: 'alice', label: 'keep' });
      const json = { 'Content-Type': 'application/json' };
      const cleared = await alice.request('DELETE', `/api/v1/chat/${session.id}`, '{"unterminated', json);
      expect(cleared.status, cleared.text).to.equal(204);
      const renamed = await alice.request('PATCH', `/api/v1/session/${session.id}`, '{"unterminated', json);
      expect(renamed.status).to.equal(400);
    });

    it('a body the parser cannot decode (unsupported Content-Encoding, a status-only error) is still the client’s: 400', async () => {
      const res = await alice.request('POST', '/api/v1/session/', '{"label":"x"}', { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' });
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Unsupported request body encoding' });
      expectLoggedAtInfo(res);
    });
  });
});
