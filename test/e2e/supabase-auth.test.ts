import { expect } from 'chai';
import { SignJWT } from 'jose';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../support/api-client.js';
import { FakeSupabaseAuth } from '../support/fake-supabase-auth.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PROJECT_SECRET = 'the-supabase-project-secret-0123456789abcdef';

/** The service with SUPABASE_URL set: every token is resolved by the provider's GET /auth/v1/user. */
describe('HTTP API with Supabase authentication', () => {
  let provider: FakeSupabaseAuth;
  let t: TestService;
  before(async () => {
    provider = new FakeSupabaseAuth(PROJECT_SECRET);
    await provider.start();
    t = await startTestService({ SUPABASE_URL: provider.url, SUPABASE_ANON_KEY: provider.anonKey, AUTH_JWT_SECRET: '' });
  });
  after(async () => {
    await t.close();
    await provider.stop();
  });
  const client = (token: string) => new ApiClient(t.baseUrl, token);

  it('tells the browser app, without a token, to sign in through Supabase with the project URL and anon key', async () => {
    const res = await t.anonymous.get('/api/v1/auth/config');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ mode: 'supabase', supabaseUrl: provider.url.replace(/\/$/, ''), supabaseAnonKey: provider.anonKey });
  });

  it('accepts a token the provider resolves, and asks it once for a burst of requests', async () => {
    const token = await signLocalToken(PROJECT_SECRET, 'supa-user');
    const before = provider.calls;
    const api = client(token);
    const id = await api.createSession('from supabase');
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.get('/api/v1/session/')));
    for (const res of responses) {
      expect(res.status).to.equal(200);
      expect(res.body.map((s: { id: string }) => s.id)).to.include(id);
      expect(res.body[0].user_id).to.equal('supa-user');
    }
    expect(provider.calls - before).to.equal(1);
  });

  it('answers 401 "Unauthorized Access" for a token the provider refuses, or an expired one', async () => {
    const forged = await signLocalToken('not-the-project-secret-0123456789abcdef', 'supa-user');
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('supa-user').setAudience('authenticated')
      .setIssuedAt(now - 100).setExpirationTime(now - 10).sign(new TextEncoder().encode(PROJECT_SECRET));
    for (const token of [forged, expired]) {
      const res = await client(token).get('/api/v1/session/');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Unauthorized Access' });
    }
  });

  it('answers 503 JSON when the provider is down (not the client’s fault), and readiness names it', async () => {
    provider.forceStatus = 500;
    try {
      const res = await client(await signLocalToken(PROJECT_SECRET, 'another-user')).get('/api/v1/session/');
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE' });
      const ready = await t.anonymous.get('/api/v1/health/ready');
      expect(ready.status).to.equal(503);
      expect(ready.body.unavailable).to.deep.equal(['identity provider (Supabase)']);
      expect((await t.anonymous.get('/api/v1/health')).text).to.equal('up');
    } finally {
      provider.forceStatus = null;
    }
    expect((await t.anonymous.get('/api/v1/health/ready')).status).to.equal(200);
  });

  it('asks the provider once per bogus token while its refusal is cached', async () => {
    const bogus = await Promise.all(['x1', 'x2'].map((user) => signLocalToken('not-the-project-secret-0123456789abcdef', user)));
    const before = provider.calls;
    for (const token of bogus) {
      for (let i = 0; i < 4; i++) expect((await client(token).get('/api/v1/session/')).status).to.equal(401);
    }
    expect(provider.calls - before).to.equal(bogus.length);
  });

  it('answers 503 (not 401) while the provider rate-limits us (429), and the token works once it stops', async () => {
    const token = await signLocalToken(PROJECT_SECRET, 'throttled-user');
    provider.forceStatus = 429;
    try {
      const res = await client(token).get('/api/v1/session/');
      expect(res.status, res.text).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE', unavailable: 'identity provider' });
      const chat = await client(token).post('/api/v1/chat/completions', { sessionId: 'x', message: 'hi' });
      expect(chat.status).to.equal(503);
      expect(chat.body).to.deep.equal({ success: false, error: 'Service Unavailable' });
    } finally {
      provider.forceStatus = null;
    }
    expect((await client(token).get('/api/v1/session/')).status).to.equal(200);
  });

  describe('failed authentications per client address', () => {
    const LIMIT = 3;
    let limited: TestService;
    before(async () => {
      limited = await startTestService({
        SUPABASE_URL: provider.url, SUPABASE_ANON_KEY: provider.anonKey, AUTH_JWT_SECRET: '', AUTH_FAILURES_PER_MINUTE: String(LIMIT),
      });
    });
    after(() => limited.close());

    it(`answers 429 with a clear body after ${LIMIT} failures, without asking the provider, whatever X-Forwarded-For says`, async () => {
      const before = provider.calls;
      for (let i = 0; i < LIMIT; i++) {
        const bogus = await signLocalToken('not-the-project-secret-0123456789abcdef', `spray-${i}`);
        const res = await new ApiClient(limited.baseUrl, bogus).get('/api/v1/session/');
        expect(res.status, `failure ${i + 1}`).to.equal(401);
      }
      expect(provider.calls - before).to.equal(LIMIT);
      const valid = await signLocalToken(PROJECT_SECRET, 'neighbour');
      for (const [token, headers] of [
        [await signLocalToken('not-the-project-secret-0123456789abcdef', 'spray-more'), {}],
        [await signLocalToken('not-the-project-secret-0123456789abcdef', 'spray-spoofed'), { 'X-Forwarded-For': '203.0.113.7' }],
        [valid, {}],
      ] as const) {
        const res = await new ApiClient(limited.baseUrl, token).request('GET', '/api/v1/session/', undefined, headers);
        expect(res.status, res.text).to.equal(429);
        expect(res.body).to.deep.equal({ error: 'Too many failed authentications from this address; try again later', code: 'RATE_LIMITED' });
        expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
      }
      const chat = await new ApiClient(limited.baseUrl, valid).post('/api/v1/chat/completions', { sessionId: 'x', message: 'hi' });
      expect(chat.status).to.equal(429);
      expect(chat.body).to.deep.equal({ success: false, error: 'Too many failed authentications from this address; try again later' });
      expect(provider.calls - before).to.equal(LIMIT);
      // Health stays public and unlimited.
      expect((await limited.anonymous.get('/api/v1/health')).text).to.equal('up');
    });
  });
});
