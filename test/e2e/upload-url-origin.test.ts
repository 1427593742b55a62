import http from 'node:http';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { ACME } from '../support/bank-fee-pdfs.js';
import { startTestService, TEST_JWT_SECRET, type TestService } from '../support/test-service.js';

/** POST /ingest/upload/url as `headers` say the request was addressed (Host, X-Forwarded-*): its signed URL. */
async function signedUrlAskedAs(t: TestService, headers: Record<string, string>): Promise<string> {
  const body = JSON.stringify({ filename: 'fees.pdf', contentType: 'application/pdf', contentSize: ACME.bytes.length });
  const token = await signLocalToken(TEST_JWT_SECRET, 'alice');
  const { port } = new URL(t.baseUrl);
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1', port, path: '/api/v1/ingest/upload/url', method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, text }));
    });
    request.on('error', reject).end(body);
  });
  expect(answer.status, answer.text).to.equal(200);
  return (JSON.parse(answer.text) as { uploadData: { signedUrl: string } }).uploadData.signedUrl;
}

// Files on this server's disk, the service reached at an address other than localhost (another machine, 127.0.0.1):
// the signed upload URL must name the address the client used, or its upload goes to the client's own localhost.
describe('local upload URLs name the address the service was reached at', function () {
  this.timeout(60_000);

  describe('without PUBLIC_URL', () => {
    let t: TestService;
    before(async () => (t = await startTestService({ PUBLIC_URL: '' })));
    after(() => t.close());

    it('names the Host the request came to, and the file sent there is ingested', async () => {
      const { port } = new URL(t.baseUrl);
      expect(await signedUrlAskedAs(t, { Host: `docs.example.net:${port}` })).to.match(new RegExp(`^http://docs\\.example\\.net:${port}/uploads/`));
      expect(await signedUrlAskedAs(t, { Host: `[::1]:${port}` })).to.match(new RegExp(`^http://\\[::1\\]:${port}/uploads/`));
      // Through the client at 127.0.0.1: its URL names 127.0.0.1, and the whole flow works through it.
      const alice = await t.as('alice');
      const sessionId = await alice.createSession('origin');
      const key = await alice.upload('fees.pdf', ACME.bytes, 'application/pdf');
      const job = await alice.waitForJob(await alice.ingest(sessionId, key, 'fees.pdf'));
      expect(job.status).to.equal('completed');
      const url = (await alice.post('/api/v1/ingest/upload/url', { filename: 'b.pdf', contentType: 'application/pdf', contentSize: 10 })).body.uploadData.signedUrl;
      expect(url.startsWith(`${t.baseUrl}/uploads/`), url).to.equal(true);
    });

    it('falls back to http://localhost:PORT for a Host that is no plain host, and ignores X-Forwarded-Host unless TRUST_PROXY', async () => {
      const { port } = new URL(t.baseUrl);
      for (const host of ['evil.example/path?x=', 'a b', 'evil.example:99999']) {
        expect(await signedUrlAskedAs(t, { Host: host }), host).to.match(new RegExp(`^http://localhost:${port}/uploads/`));
      }
      const forwarded = await signedUrlAskedAs(t, { Host: `127.0.0.1:${port}`, 'X-Forwarded-Host': 'docs.example.org', 'X-Forwarded-Proto': 'https' });
      expect(forwarded).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${port}/uploads/`));
    });
  });

  it('behind a trusted proxy (TRUST_PROXY), names the forwarded host and scheme', async () => {
    const t = await startTestService({ PUBLIC_URL: '', TRUST_PROXY: 'true' });
    try {
      const url = await signedUrlAskedAs(t, { Host: 'internal:3000', 'X-Forwarded-Host': 'docs.example.org', 'X-Forwarded-Proto': 'https' });
      expect(url).to.match(/^https:\/\/docs\.example\.org\/uploads\//);
    } finally {
      await t.close();
    }
  });

  it('with PUBLIC_URL set, names it whatever the Host', async () => {
    const t = await startTestService({ PUBLIC_URL: 'https://files.example.com/doc-chat/' });
    try {
      expect(await signedUrlAskedAs(t, { Host: 'docs.example.net' })).to.match(/^https:\/\/files\.example\.com\/doc-chat\/uploads\//);
    } finally {
      await t.close();
    }
  });
});
