import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { OVERFLOW_PER_ADDRESS } from '../../server/http/connection-cap.js';
import { checkResponse } from '../support/openapi-check.js';
import { parseResponses, RawConnection, type RawResponse } from '../support/raw-http.js';
import { startTestService, TEST_JWT_SECRET, type TestService } from '../support/test-service.js';

const WAIT_MS = 5_000;
const RETRY_AFTER = '1';

/**
 * Issue 48, point 6: one address with many connections (a reverse proxy, an office NAT, a load test) and requests whose
 * body is left unread. Raw sockets on 127.0.0.1, counts bounded, every socket destroyed and every service stopped.
 */
describe('fault: connections', function () {
  this.timeout(30_000);
  let t: TestService | undefined;
  const sockets: RawConnection[] = [];

  async function connect(): Promise<RawConnection> {
    const conn = await RawConnection.open(t!.baseUrl);
    sockets.push(conn);
    return conn;
  }

  afterEach(async () => {
    for (const conn of sockets.splice(0)) conn.destroy();
    await t?.close();
    t = undefined;
  });

  const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`;

  /** The first response on `conn`, once complete (or undefined if none came within WAIT_MS). */
  async function firstResponse(conn: RawConnection): Promise<RawResponse | undefined> {
    await waitFor(() => conn.responses.length > 0 || conn.isClosed);
    return conn.responses[0];
  }

  /** A 503 over a cap, as the OpenAPI document declares it for the route `path` (GET). */
  function expectOverCap(res: RawResponse | undefined, path: string, error: string, closes: boolean): void {
    expect(res?.status, JSON.stringify(res)).to.equal(503);
    checkResponse({ method: 'GET', path, status: res!.status, headers: new Headers(res!.headers), text: res!.body });
    expect(res!.headers['retry-after']).to.equal(RETRY_AFTER);
    expect(res!.headers['content-type']).to.match(/^application\/json/);
    expect(JSON.parse(res!.body)).to.deep.equal({ error });
    if (closes) expect(res!.headers.connection).to.equal('close');
    else expect(res!.headers.connection).to.not.equal('close');
  }

  describe('one address past MAX_CONNECTIONS_PER_CLIENT (64)', () => {
    const OVER_CAP = 'Too many connections from this address (at most 64 at once); try again shortly';

    it('answers every connection past the cap 503 with Retry-After and closes it, while the 64 keep being served', async () => {
      t = await startTestService();
      const held = await Promise.all(Array.from({ length: 64 }, () => connect()));
      for (const conn of held) conn.write(get('/api/v1/health'));
      for (const conn of held) expect((await firstResponse(conn))?.status).to.equal(200);
      const token = await signLocalToken(TEST_JWT_SECRET, 'alice');
      const extra = await Promise.all(Array.from({ length: 16 }, () => connect()));
      for (const conn of extra) conn.write(get('/api/v1/session/', `Authorization: Bearer ${token}\r\n`));
      for (const conn of extra) {
        expectOverCap(await firstResponse(conn), '/api/v1/session/', OVER_CAP, true);
        expect(await conn.closedWithin(WAIT_MS), 'closed after its 503').to.equal(true);
      }
      // The held connections are untouched: a second request on each is served.
      for (const conn of held) conn.write(get('/api/v1/health'));
      for (const conn of held) {
        await waitFor(() => conn.responses.length === 2);
        expect(conn.responses.map((r) => r.status)).to.deep.equal([200, 200]);
      }
    });

    it('loses no request of 5 users × 16 at once from one address: each refused one is told to retry, and its retry is served', async () => {
      t = await startTestService();
      const users = ['u1', 'u2', 'u3', 'u4', 'u5'];
      const tokens = await Promise.all(users.map((user) => signLocalToken(TEST_JWT_SECRET, user)));
      const sessions = await Promise.all(users.map(async (user) => (await t!.as(user)).createSession(`${user}'s session`)));
      // Half read their session list, half their session's history, all on connections of their own, held open.
      const paths = users.flatMap((_, u) => Array.from({ length: 16 }, (_unused, i) => (i % 2 ? '/api/v1/session/' : `/api/v1/chat/history/${sessions[u]}`)));
      const requests = paths.map((path, i) => get(path, `Authorization: Bearer ${tokens[Math.floor(i / 16)]}\r\n`));
      const conns = await Promise.all(requests.map(() => connect()));
      conns.forEach((conn, i) => conn.write(requests[i]!));
      const answers = await Promise.all(conns.map((conn) => firstResponse(conn)));
      expect(answers.filter((res) => res === undefined), 'unanswered').to.have.length(0);
      const refused = answers.flatMap((res, i) => (res!.status === 503 ? [i] : []));
      // At most 64 served at once (fewer when this process's own fetch connections, kept alive, hold some).
      expect(answers.filter((res) => res!.status === 200).length).to.be.at.most(64);
      expect(refused.length).to.be.at.least(requests.length - 64);
      expect(answers.filter((res) => res!.status !== 200 && res!.status !== 503), 'neither served nor refused').to.have.length(0);
      for (const i of refused) expectOverCap(answers[i], paths[i]!, OVER_CAP, true);
      // The client retries after Retry-After; by then it has let go of the connections it had finished with.
      for (const conn of conns) conn.destroy();
      await new Promise((resolve) => setTimeout(resolve, Number(RETRY_AFTER) * 1000));
      const retries = await Promise.all(refused.map(() => connect()));
      retries.forEach((conn, i) => conn.write(requests[refused[i]!]!));
      for (const conn of retries) expect((await firstResponse(conn))?.status).to.equal(200);
    });

    it('holds at most OVERFLOW_PER_ADDRESS silent connections past the cap; beyond them destroys, and answers again once they are cut', async () => {
      t = await startTestService({ MAX_CONNECTIONS_PER_CLIENT: '2', HTTP_HEADERS_TIMEOUT_MS: '800' });
      const held = await Promise.all([connect(), connect()]);
      for (const conn of held) conn.write(get('/api/v1/health'));
      for (const conn of held) expect((await firstResponse(conn))?.status).to.equal(200);
      // A slow-loris: connections past the cap that never send a request.
      const silent = await Promise.all(Array.from({ length: OVERFLOW_PER_ADDRESS }, () => connect()));
      const beyond = await connect();
      expect(await beyond.closedWithin(WAIT_MS), 'destroyed beyond the ceiling').to.equal(true);
      expect(beyond.text).to.equal('');
      // The headers timeout cuts the silent ones (the held two are idle keep-alive connections for 5 s more)...
      for (const conn of silent) expect(await conn.closedWithin(WAIT_MS), 'silent one cut').to.equal(true);
      // ...and the next connection past the cap is answered again.
      const next = await connect();
      next.write(get('/api/v1/health'));
      expectOverCap(await firstResponse(next), '/api/v1/health', 'Too many connections from this address (at most 2 at once); try again shortly', true);
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    const from = (client: string) => get('/api/v1/health', `X-Forwarded-For: ${client}\r\n`);

    it('serves many forwarded clients through more proxy sockets than MAX_CONNECTIONS_PER_CLIENT', async () => {
      t = await startTestService({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_CLIENT: '2' });
      const proxySockets = await Promise.all(Array.from({ length: 6 }, () => connect()));
      const ROUNDS = 5;
      for (let round = 1; round <= ROUNDS; round++) {
        proxySockets.forEach((conn, s) => conn.write(from(`198.51.100.${round * 10 + s}`)));
        for (const conn of proxySockets) await waitFor(() => conn.responses.length === round);
      }
      for (const conn of proxySockets) {
        expect(conn.responses.map((r) => r.status)).to.deep.equal(Array(ROUNDS).fill(200));
        expect(conn.isClosed).to.equal(false);
      }
    });

    it('caps the requests in progress per forwarded address, not the proxy’s sockets, and frees the count as they end', async () => {
      t = await startTestService({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_CLIENT: '2' });
      const alice = await t.as('alice');
      const uploads = await Promise.all([1, 2].map(async (n) => {
        const res = await alice.post('/api/v1/ingest/upload/url', { filename: `slow-${n}.pdf`, contentType: 'application/pdf', contentSize: 100 });
        expect(res.status, res.text).to.equal(200);
        const { pathname, search } = new URL(res.body.uploadData.signedUrl);
        return `${pathname}${search}`;
      }));
      // Client A has two uploads in progress (their bodies half sent) through two proxy sockets.
      const slow = await Promise.all(uploads.map(() => connect()));
      slow.forEach((conn, i) => conn.write(`PUT ${uploads[i]} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.7\r\n`
        + `Content-Type: application/pdf\r\nContent-Length: 100\r\n\r\n${'%'.repeat(50)}`));
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A third request of A's is refused, on a proxy socket that stays open and serves client B next.
      const proxy = await connect();
      proxy.write(from('203.0.113.7'));
      expectOverCap(await firstResponse(proxy), '/api/v1/health', 'Too many requests in progress from this address (at most 2 at once); try again shortly', false);
      proxy.write(from('203.0.113.8'));
      await waitFor(() => proxy.responses.length === 2);
      expect(proxy.responses[1]!.status).to.equal(200);
      // A's uploads finish; A is served again.
      for (const conn of slow) conn.write('%'.repeat(50));
      for (const conn of slow) expect((await firstResponse(conn))?.status).to.equal(200);
      proxy.write(from('203.0.113.7'));
      await waitFor(() => proxy.responses.length === 3);
      expect(proxy.responses[2]!.status).to.equal(200);
    });

    it('caps the sockets in all (MAX_CONNECTIONS): one more is answered 503 and closed', async () => {
      t = await startTestService({ TRUST_PROXY: 'true', MAX_CONNECTIONS: '4' });
      const held = await Promise.all(Array.from({ length: 4 }, () => connect()));
      for (const conn of held) conn.write(from('198.51.100.1'));
      for (const conn of held) expect((await firstResponse(conn))?.status).to.equal(200);
      const extra = await connect();
      extra.write(from('198.51.100.2'));
      expectOverCap(await firstResponse(extra), '/api/v1/health', 'Too many connections to this server; try again shortly', true);
      expect(await extra.closedWithin(WAIT_MS)).to.equal(true);
    });
  });

  describe('an answer sent before its request body was all read', () => {
    let token: string;
    async function uploadPath(size: number): Promise<string> {
      const res = await (await t!.as('alice')).post('/api/v1/ingest/upload/url', { filename: 'a.pdf', contentType: 'application/pdf', contentSize: size });
      expect(res.status, res.text).to.equal(200);
      const { pathname, search } = new URL(res.body.uploadData.signedUrl);
      return `${pathname}${search}`;
    }

    /**
     * Sends `head + body`, reads the answer, then sends a second request on the same connection: the answer must be
     * whole, say `Connection: close`, and the connection close cleanly (no reset before the answer was all in).
     */
    async function refusedThenNext(request: string): Promise<RawResponse> {
      const conn = await connect();
      conn.write(request);
      const first = await firstResponse(conn);
      expect(first, conn.text).to.not.equal(undefined);
      expect(first!.headers.connection).to.equal('close');
      if (!conn.isClosed) conn.write(get('/api/v1/health'));
      expect(await conn.closedWithin(WAIT_MS), 'closed').to.equal(true);
      if (conn.error) expect(parseResponses(conn.error.receivedBefore), `reset (${conn.error.code}) cut the answer`).to.have.length(1);
      // The second request was not read as part of the first body, nor answered on a closing connection.
      expect(conn.responses, conn.text).to.have.length(1);
      return first!;
    }

    beforeEach(async () => {
      t = await startTestService({ HTTP_IDLE_TIMEOUT_MS: '1000' });
      token = await signLocalToken(TEST_JWT_SECRET, 'alice');
    });

    it('closes after an upload PUT refused part-way (body over the signed size, wrong type, chunked past the size); a retry then succeeds', async () => {
      const path = await uploadPath(100);
      const put = (headers: string, body: string) => `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n${body}`;
      const over = await refusedThenNext(put('Content-Type: application/pdf\r\nContent-Length: 200\r\n', '%'.repeat(50)));
      expect(over.status).to.equal(413);
      const wrongType = await refusedThenNext(put('Content-Type: image/png\r\nContent-Length: 100\r\n', '%'.repeat(50)));
      expect(wrongType.status).to.equal(415);
      const chunked = await refusedThenNext(put('Content-Type: application/pdf\r\nTransfer-Encoding: chunked\r\n', `c8\r\n${'%'.repeat(200)}\r\n`));
      expect(chunked.status).to.equal(413);
      // Nothing was stored by the refused attempts: the URL still takes the upload.
      const conn = await connect();
      conn.write(put('Content-Type: application/pdf\r\nContent-Length: 100\r\n', '%'.repeat(100)));
      expect((await firstResponse(conn))?.status, conn.text).to.equal(200);
    });

    it('closes after an API body refused unread (over 1 MB, 401 before the body) but keeps a connection whose body was read', async () => {
      const post = (headers: string, length: number, body: string) =>
        `POST /api/v1/session/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: ${length}\r\n\r\n${body}`;
      expect((await refusedThenNext(post(`Authorization: Bearer ${token}\r\n`, 2_000_000, 'x'.repeat(1_100_000)))).status).to.equal(413);
      expect((await refusedThenNext(post('', 100, '{"label":"'))).status).to.equal(401);
      // Malformed JSON read to its end: the connection stays and serves the next request.
      const conn = await connect();
      conn.write(post(`Authorization: Bearer ${token}\r\n`, 5, '{"a":'));
      expect((await firstResponse(conn))?.status).to.equal(400);
      expect(conn.responses[0]!.headers.connection).to.equal('keep-alive');
      conn.write(get('/api/v1/health'));
      await waitFor(() => conn.responses.length === 2);
      expect(conn.responses[1]!.status).to.equal(200);
      expect(conn.isClosed).to.equal(false);
    });
  });
});

/** Waits until `done()` holds, at most WAIT_MS (the assertion after it says what was missing). */
async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
