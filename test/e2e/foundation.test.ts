import { expect } from 'chai';
import { SignJWT } from 'jose';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../support/api-client.js';
import { CONFORMANCE_STACKS, READINESS_NAMES } from '../support/stacks.js';
import { TEST_JWT_SECRET, type TestService } from '../support/test-service.js';

const UNAUTHORIZED = { error: 'Unauthorized Access' };
const NOT_FOUND = { error: 'Session not found' };

// Every test runs twice: on the embedded defaults and on S3 (s3rver) + Chroma + Ollama (fake server).
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();

  describe(`HTTP API (${stack.name} stack)`, function () {
    this.timeout(30_000);
    after(() => stack.close());

    describe('health, authentication, sessions, history', function () {
      let t: TestService;
      let alice: ApiClient;
      let bob: ApiClient;

      before(async () => {
        t = await stack.start();
        alice = await t.as('alice');
        bob = await t.as('bob');
      });

      describe('health', () => {
        it('answers the bare text "up" without a token', async () => {
          const res = await t.anonymous.get('/api/v1/health');
          expect(res.status).to.equal(200);
          expect(res.text).to.equal('up');
          expect(res.headers.get('content-type')).to.match(/^text\/plain/);
        });

        it('reports readiness of every configured dependency', async () => {
          const res = await t.anonymous.get('/api/v1/health/ready');
          expect(res.status).to.equal(200);
          expect(res.body.status).to.equal('ready');
          expect(res.body).to.not.have.property('unavailable');
          const expected = ['database', ...stack.dependencies.flatMap((d) => READINESS_NAMES[d])];
          expect(res.body.dependencies.map((d: { name: string }) => d.name)).to.have.members(expected);
          expect(res.body.dependencies.every((d: { ok: boolean }) => d.ok)).to.equal(true);
        });
      });

      describe('auth config', () => {
        it('tells the browser app, without a token, that tokens are local', async () => {
          const res = await t.anonymous.get('/api/v1/auth/config');
          expect(res.status).to.equal(200);
          expect(res.body).to.deep.equal({ mode: 'local' });
        });
      });

      describe('authentication', () => {
        const cases: [string, () => Promise<Record<string, string>>][] = [
          ['a missing header', async () => ({})],
          ['a wrong scheme', async () => ({ Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
          ['a token without scheme', async () => ({ Authorization: await signLocalToken(TEST_JWT_SECRET, 'alice') })],
          ['a malformed token', async () => ({ Authorization: 'Bearer not-a-jwt' })],
          ['a wrong signature', async () => ({ Authorization: `Bearer ${await signLocalToken('some-other-secret-0123456789abcdef', 'alice')}` })],
          [
            'an expired token',
            async () => {
              const now = Math.floor(Date.now() / 1000);
              const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setAudience('authenticated')
                .setIssuedAt(now - 100).setExpirationTime(now - 10).sign(new TextEncoder().encode(TEST_JWT_SECRET));
              return { Authorization: `Bearer ${token}` };
            },
          ],
        ];
        for (const [name, headers] of cases) {
          it(`gives 401 "Unauthorized Access" for ${name}`, async () => {
            for (const [method, path] of [['GET', '/api/v1/session/'], ['POST', '/api/v1/chat/completions'], ['GET', '/api/v1/chat/history/x']]) {
              const res = await t.anonymous.request(method, path, method === 'POST' ? {} : undefined, await headers());
              expect(res.status, `${method} ${path}`).to.equal(401);
              expect(res.body).to.deep.equal(UNAUTHORIZED);
            }
          });
        }
      });

      describe('sessions', () => {
        it('creates a session: 201 { data: { id, label, user_id, createdAt } }', async () => {
          const res = await alice.post('/api/v1/session/', { label: 'Quarterly reports' });
          expect(res.status).to.equal(201);
          expect(Object.keys(res.body)).to.deep.equal(['data']);
          expect(Object.keys(res.body.data).sort()).to.deep.equal(['createdAt', 'id', 'label', 'user_id']);
          expect(res.body.data).to.include({ label: 'Quarterly reports', user_id: 'alice' });
          expect(res.body.data.id).to.match(/^[0-9a-f-]{36}$/);
          expect(new Date(res.body.data.createdAt).toISOString()).to.equal(res.body.data.createdAt);
        });

        it('lists only the caller’s sessions as a bare array', async () => {
          const mine = await alice.createSession('alice list check');
          await bob.createSession('bob private');
          const res = await alice.get('/api/v1/session/');
          expect(res.status).to.equal(200);
          expect(res.body).to.be.an('array');
          expect(res.body.every((s: { user_id: string }) => s.user_id === 'alice')).to.equal(true);
          expect(res.body.map((s: { id: string }) => s.id)).to.include(mine);
          expect(res.body.map((s: { label: string }) => s.label)).to.not.include('bob private');
        });

        it('renames: 200 { data } without createdAt', async () => {
          const id = await alice.createSession('before');
          const res = await alice.patch(`/api/v1/session/${id}`, { label: 'after' });
          expect(res.status).to.equal(200);
          expect(res.body).to.deep.equal({ data: { id, label: 'after', user_id: 'alice' } });
        });

        it('deletes: 204 with an empty body, then it is gone', async () => {
          const id = await alice.createSession('doomed');
          const res = await alice.delete(`/api/v1/session/${id}`);
          expect(res.status).to.equal(204);
          expect(res.text).to.equal('');
          expect((await alice.get('/api/v1/session/')).body.map((s: { id: string }) => s.id)).to.not.include(id);
          expect((await alice.delete(`/api/v1/session/${id}`)).status).to.equal(404);
        });

        it('refuses a missing, empty or non-string label with 400 and creates nothing', async () => {
          const before = (await alice.get('/api/v1/session/')).body.length;
          for (const body of [{}, { label: 42 }, { label: null }, { label: ['x'] }, { label: '   ' }, [], '"just a string"', '42']) {
            const res = await alice.post('/api/v1/session/', body);
            expect(res.status, JSON.stringify(body)).to.equal(400);
            expect(res.body.error).to.be.a('string').and.match(/label|object|JSON/);
          }
          const id = await alice.createSession('keep');
          expect((await alice.patch(`/api/v1/session/${id}`, { label: 7 })).status).to.equal(400);
          expect((await alice.get('/api/v1/session/')).body.length).to.equal(before + 1);
        });

        it('refuses malformed JSON with 400, never 500', async () => {
          for (const [method, path] of [['POST', '/api/v1/session/'], ['POST', '/api/v1/chat/completions'], ['POST', '/api/v1/ingest/process']]) {
            const res = await alice.request(method, path, '{"label": "unterminated', { 'Content-Type': 'application/json' });
            expect(res.status, path).to.equal(400);
            expect(res.body).to.deep.equal({ error: 'Malformed JSON body' });
          }
        });

        it('refuses a body over the JSON limit with 413', async () => {
          const res = await alice.post('/api/v1/session/', { label: 'x'.repeat(2 * 1024 * 1024) });
          expect(res.status).to.equal(413);
        });

        it('answers 404 "Session not found" for another user’s or an unknown session on every route', async () => {
          const foreign = await bob.createSession('bob only');
          for (const id of [foreign, '00000000-0000-0000-0000-000000000000', 'not-even-a-uuid']) {
            const attempts = [
              await alice.get(`/api/v1/chat/history/${id}`),
              await alice.delete(`/api/v1/chat/${id}`),
              await alice.patch(`/api/v1/session/${id}`, { label: 'mine now' }),
              await alice.delete(`/api/v1/session/${id}`),
              await alice.ask(id, 'what is in there?'),
              await alice.post('/api/v1/ingest/process', { key: 'alice/x-file.pdf', filename: 'file.pdf', session_id: id, tags: {} }),
            ];
            for (const res of attempts) {
              expect(res.status, `${id}: ${res.text}`).to.equal(404);
              expect(res.body).to.deep.equal(NOT_FOUND);
            }
          }
          // Bob's session is untouched.
          const list = (await bob.get('/api/v1/session/')).body;
          expect(list.find((s: { id: string }) => s.id === foreign).label).to.equal('bob only');
        });

        it('answers unknown routes with 404 JSON', async () => {
          const res = await alice.request('GET', '/api/v1/nothing-here', undefined, {}, { unknownRoute: true });
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal({ error: 'Not found' });
        });
      });

      describe('chat history and clear chat', () => {
        let sessionId: string;
        before(async () => {
          sessionId = await alice.createSession('history');
          for (let i = 0; i < 13; i++) {
            const res = await alice.ask(sessionId, `question number ${i}`);
            expect(res.status).to.equal(200);
          }
        });

        it('pages 20 messages oldest first with role, content and createdAt (answers with their sources), and the total', async () => {
          const page0 = await alice.get(`/api/v1/chat/history/${sessionId}`);
          expect(page0.status).to.equal(200);
          expect(page0.body.success).to.equal(true);
          expect(page0.body.data).to.have.length(20);
          expect(page0.body.total).to.equal(26);
          expect(Object.keys(page0.body.data[0]).sort()).to.deep.equal(['content', 'createdAt', 'role']);
          expect(Object.keys(page0.body.data[1]).sort()).to.deep.equal(['content', 'createdAt', 'role', 'sources']);
          expect(page0.body.data[1].sources).to.deep.equal([]);
          expect(page0.body.data[0]).to.include({ role: 'user', content: 'question number 0' });
          expect(page0.body.data[1].role).to.equal('assistant');
          const stamps = page0.body.data.map((m: { createdAt: string }) => m.createdAt);
          expect([...stamps].sort()).to.deep.equal(stamps);
          const page1 = await alice.get(`/api/v1/chat/history/${sessionId}?page=1`);
          expect(page1.body.data).to.have.length(6);
          expect(page1.body.total).to.equal(26);
          expect(page1.body.data[0]).to.include({ role: 'user', content: 'question number 10' });
          expect((await alice.get(`/api/v1/chat/history/${sessionId}?page=2`)).body.data).to.deep.equal([]);
        });

        it('reads pages below 0 as 0 and refuses a non-numeric page with 400', async () => {
          const zero = await alice.get(`/api/v1/chat/history/${sessionId}?page=0`);
          expect((await alice.get(`/api/v1/chat/history/${sessionId}?page=-3`)).body).to.deep.equal(zero.body);
          for (const bad of ['abc', '1.5', '', '1e3']) {
            const res = await alice.get(`/api/v1/chat/history/${sessionId}?page=${bad}`);
            expect(res.status, bad).to.equal(400);
            expect(res.body).to.deep.equal({ error: 'page: page must be a whole number' });
          }
        });

        it('clears the chat: 204 empty, history empty, session kept', async () => {
          const res = await alice.delete(`/api/v1/chat/${sessionId}`);
          expect(res.status).to.equal(204);
          expect(res.text).to.equal('');
          expect((await alice.get(`/api/v1/chat/history/${sessionId}`)).body).to.deep.equal({ success: true, data: [], total: 0 });
          expect((await alice.get('/api/v1/session/')).body.map((s: { id: string }) => s.id)).to.include(sessionId);
        });
      });

      describe('CORS', () => {
        it('allows every origin by default, including preflight', async () => {
          const res = await t.anonymous.request('OPTIONS', '/api/v1/session/', undefined, {
            Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type',
          });
          expect(res.status).to.equal(204);
          expect(res.headers.get('access-control-allow-origin')).to.equal('*');
          expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('authorization');
        });
      });
    });

    describe('CORS_ORIGINS narrows the allowed origins', () => {
      let t: TestService;
      before(async () => {
        t = await stack.start({ CORS_ORIGINS: 'https://allowed.example.com' });
      });

      it('answers an allowed origin and not another', async () => {
        const allowed = await t.anonymous.request('GET', '/api/v1/health', undefined, { Origin: 'https://allowed.example.com' });
        expect(allowed.headers.get('access-control-allow-origin')).to.equal('https://allowed.example.com');
        const other = await t.anonymous.request('GET', '/api/v1/health', undefined, { Origin: 'https://evil.example.com' });
        expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      });
    });
  });
}
