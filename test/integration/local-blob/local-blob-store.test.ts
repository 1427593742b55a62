import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { NotFoundError, ValidationError } from '../../../core/domain/errors.js';
import { LocalBlobStore } from '../../../adapters/local-blob/local-blob-store.js';
import { httpPut, startLocalUploadServer, type LocalUploadServer } from './local-upload-server.js';

const SECRET = 'test-secret-0123456789abcdef';
const PDF = 'application/pdf';

interface RawResponse {
  status: number;
  body: string;
}

/** PUT with `Transfer-Encoding: chunked` (no Content-Length), so the store must count bytes itself. */
function chunkedPut(url: string, chunks: Uint8Array[], contentType = PDF): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-type': contentType } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })();
  });
}

/**
 * PUT over a raw socket with a chunked body of `chunks` × 64 KiB, waiting for the server to take
 * each piece. Measures how much the server reads (Node's http client has its own ideas once the
 * response has ended). Gives up after 3 s.
 */
function rawChunkedPut(url: string, chunks: number): Promise<{ response: string; written: number; timedOut: boolean; serverClosed: boolean }> {
  const target = new URL(url);
  const chunk = new Uint8Array(64 * 1024);
  return new Promise((resolve) => {
    let response = '';
    let written = 0;
    let serverClosed = false;
    let settled = false;
    const socket = net.connect(Number(target.port), target.hostname);
    const settle = (timedOut: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, written, timedOut, serverClosed });
    };
    const timer = setTimeout(() => settle(true), 3000);
    socket.on('error', () => {
      serverClosed = true;
      setTimeout(() => settle(false), 20);
    });
    socket.on('end', () => {
      serverClosed = true;
    });
    socket.on('data', (data: Buffer) => (response += data.toString('latin1')));
    socket.on('connect', async () => {
      socket.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: ${PDF}\r\nTransfer-Encoding: chunked\r\n\r\n`);
      for (let i = 0; i < chunks && !socket.destroyed; i++) {
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        const ok = socket.write('\r\n');
        if (!ok) await new Promise((r) => socket.once('drain', r).once('close', r));
        if (socket.destroyed) break;
        written++;
      }
      if (socket.destroyed) return;
      // Give the answer a moment to arrive once the whole body is out.
      socket.write('0\r\n\r\n', () => setTimeout(() => settle(false), 50));
    });
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

async function expectRejects(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return;
  }
  expect.fail(`expected ${type.name}`);
}

describe('LocalBlobStore upload route refuses abuse and stores nothing', function () {
  let now = new Date('2030-06-01T12:00:00Z');
  let server: LocalUploadServer;

  before(async function () {
    server = await startLocalUploadServer({ maxBytes: 1024, clock: { now: () => now } });
  });

  after(async function () {
    await server?.stop();
  });

  afterEach(async function () {
    // Whatever the test did, no temp file may stay behind.
    expect(await listFiles(path.join(server.directory, 'tmp'))).to.deep.equal([]);
  });

  const newKey = (name = 'doc.pdf'): string => `user-1/${randomUUID()}-${name}`;
  const sign = (key: string, contentSize: number, contentType = PDF, expiresInSeconds = 3600) =>
    server.store.createUploadUrl({ key, contentType, contentSize, expiresInSeconds });
  const stored = async (): Promise<string[]> => [
    ...(await listFiles(path.join(server.directory, 'objects'))),
    ...(await listFiles(path.join(server.directory, 'meta'))),
  ];

  async function expectNothingStored(key: string): Promise<void> {
    expect(await server.store.stat(key)).to.equal(null);
    expect((await stored()).filter((f) => f.includes(key.split('/')[1]!))).to.deep.equal([]);
  }

  it('accepts a correct upload and writes a sidecar with the content type', async function () {
    const key = newKey();
    const { url } = await sign(key, 10);
    expect(await httpPut(url, new Uint8Array(10), PDF)).to.equal(200);
    const sha256 = createHash('sha256').update(new Uint8Array(10)).digest('hex');
    expect(await server.store.stat(key)).to.deep.equal({ size: 10, contentType: PDF, etag: sha256 });
    const sidecar = JSON.parse(await fs.readFile(path.join(server.directory, 'meta', `${key}.json`), 'utf8'));
    expect(sidecar).to.include({ contentType: PDF, size: 10, sha256 });
    await server.store.remove(key);
    // The sidecar stays (while the URL is valid) so the URL cannot be used again.
    expect((await stored()).filter((f) => f.includes(key.split('/')[1]!))).to.deep.equal([`${key}.json`]);
  });

  it('takes each URL once: a replay gets 409 with a clear text, a race of two PUTs stores one', async function () {
    const key = newKey();
    const { url } = await sign(key, 4);
    expect(await httpPut(url, new Uint8Array([1, 2, 3, 4]), PDF)).to.equal(200);
    const replay = await fetch(url, { method: 'PUT', body: new Uint8Array([5, 6, 7, 8]), headers: { 'content-type': PDF } });
    expect(replay.status).to.equal(409);
    expect(await replay.json()).to.deep.equal({ error: 'This upload URL has already been used: request a new one from /api/v1/ingest/upload/url' });
    expect([...(await server.store.read(key))]).to.deep.equal([1, 2, 3, 4]);

    const raced = newKey();
    const racedUrl = (await sign(raced, 4)).url;
    const statuses = await Promise.all([1, 2, 3].map((n) => httpPut(racedUrl, new Uint8Array(4).fill(n), PDF)));
    expect(statuses.filter((s) => s === 200)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(2);
    expect((await stored()).filter((f) => f.includes(raced.split('/')[1]!) && f.startsWith('tmp'))).to.deep.equal([]);
  });

  it('answers JSON { ok: true } on success and { error } on refusal', async function () {
    const key = newKey();
    const { url } = await sign(key, 3);
    const ok = await fetch(url, { method: 'PUT', body: new Uint8Array(3), headers: { 'content-type': PDF } });
    expect(ok.status).to.equal(200);
    expect(await ok.json()).to.deep.equal({ ok: true });
    const refused = await fetch(url, { method: 'PUT', body: new Uint8Array(3), headers: { 'content-type': 'image/jpeg' } });
    expect(refused.status).to.equal(415);
    expect(((await refused.json()) as { error?: unknown }).error).to.be.a('string').and.match(/Content-Type/);
    await server.store.remove(key);
  });

  it('body bigger than declared (Content-Length) → 413', async function () {
    const key = newKey();
    const { url } = await sign(key, 10);
    expect(await httpPut(url, new Uint8Array(20), PDF)).to.equal(413);
    await expectNothingStored(key);
  });

  it('body bigger than declared (chunked, no Content-Length) → 413, cut off while streaming', async function () {
    const key = newKey();
    const { url } = await sign(key, 100);
    const response = await chunkedPut(url, [new Uint8Array(60), new Uint8Array(60)]);
    expect(response.status).to.equal(413);
    expect(JSON.parse(response.body).error).to.match(/larger than the declared size/);
    await expectNothingStored(key);
  });

  it('body over maxBytes (chunked) → 413, and the server keeps serving', async function () {
    const key = newKey();
    const { url } = await sign(key, 1024);
    const chunks = Array.from({ length: 64 }, () => new Uint8Array(1024));
    const response = await chunkedPut(url, chunks);
    expect(response.status).to.equal(413);
    await expectNothingStored(key);

    const other = newKey();
    expect(await httpPut((await sign(other, 1024)).url, new Uint8Array(1024), PDF)).to.equal(200);
    await server.store.remove(other);
  });

  it('a refused client that keeps sending far more than maxBytes is cut off, after getting the 413', async function () {
    const key = newKey();
    const { url } = await sign(key, 1000);
    const outcome = await rawChunkedPut(url, 256); // 16 MB against maxBytes 1 KiB
    expect(outcome.response).to.match(/^HTTP\/1\.1 413 /);
    expect(outcome.timedOut).to.equal(false);
    expect(outcome.serverClosed).to.equal(true);
    expect(outcome.written).to.be.below(256);
    await expectNothingStored(key);
  });

  it('body shorter than declared → 400 (with Content-Length and chunked)', async function () {
    const key = newKey();
    const { url } = await sign(key, 10);
    expect(await httpPut(url, new Uint8Array(5), PDF)).to.equal(400);
    const response = await chunkedPut(url, [new Uint8Array(3), new Uint8Array(3)]);
    expect(response.status).to.equal(400);
    expect(JSON.parse(response.body).error).to.match(/shorter than the declared size/);
    await expectNothingStored(key);
  });

  it('will not sign a size over maxBytes', async function () {
    await expectRejects(sign(newKey(), 1025), ValidationError);
  });

  it('refuses a size over maxBytes even when validly signed (e.g. by a store with a higher limit) → 413', async function () {
    const key = newKey();
    const lenient = new LocalBlobStore({ directory: server.directory, publicUrl: server.baseUrl, secret: SECRET, clock: { now: () => now } });
    const { url } = await lenient.createUploadUrl({ key, contentType: PDF, contentSize: 2048, expiresInSeconds: 60 });
    expect(await httpPut(url, new Uint8Array(2048), PDF)).to.equal(413);
    await expectNothingStored(key);
  });

  it('wrong or missing Content-Type → 415', async function () {
    const key = newKey();
    const { url } = await sign(key, 4);
    expect(await httpPut(url, new Uint8Array(4), 'image/jpeg')).to.equal(415);
    expect(await httpPut(url, new Uint8Array(4), 'text/html')).to.equal(415);
    expect(await httpPut(url, new Uint8Array(4), undefined)).to.equal(415);
    await expectNothingStored(key);
    // Case and parameters do not matter.
    expect(await httpPut(url, new Uint8Array(4), 'Application/PDF; charset=binary')).to.equal(200);
    await server.store.remove(key);
  });

  it('tampered signature, size, type, expiry or key → 403', async function () {
    const key = newKey();
    const { url } = await sign(key, 8);
    const tamper = (edit: (u: URL) => void): string => {
      const u = new URL(url);
      edit(u);
      return u.toString();
    };
    const sig = new URL(url).searchParams.get('sig')!;
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    const cases: Array<[string, string, number]> = [
      ['signature', tamper((u) => u.searchParams.set('sig', flipped)), 8],
      ['missing signature', tamper((u) => u.searchParams.delete('sig')), 8],
      ['short signature', tamper((u) => u.searchParams.set('sig', sig.slice(0, 10))), 8],
      ['duplicated signature', tamper((u) => u.searchParams.append('sig', sig)), 8],
      ['size', tamper((u) => u.searchParams.set('size', '9')), 9],
      ['expires', tamper((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))), 8],
      ['key', url.replace('/uploads/user-1/', '/uploads/user-2/'), 8],
    ];
    for (const [what, tamperedUrl, size] of cases) {
      expect(await httpPut(tamperedUrl, new Uint8Array(size), PDF), what).to.equal(403);
    }
    const asJpeg = tamper((u) => u.searchParams.set('type', 'image/jpeg'));
    expect(await httpPut(asJpeg, new Uint8Array(8), 'image/jpeg'), 'type').to.equal(403);
    await expectNothingStored(key);
    expect(await server.store.stat(key.replace('user-1/', 'user-2/'))).to.equal(null);
  });

  it('expired URL → 403; still valid one second before expiry', async function () {
    const start = now;
    try {
      const key = newKey();
      const { url, expiresAt } = await sign(key, 4, PDF, 60);
      expect(Date.parse(expiresAt)).to.equal(start.getTime() + 60_000);
      now = new Date(start.getTime() + 60_000);
      expect(await httpPut(url, new Uint8Array(4), PDF)).to.equal(403);
      await expectNothingStored(key);
      now = new Date(start.getTime() + 59_000);
      expect(await httpPut(url, new Uint8Array(4), PDF)).to.equal(200);
      await server.store.remove(key);
    } finally {
      now = start;
    }
  });

  it('an upload the client aborts half-way leaves nothing behind', async function () {
    const key = newKey();
    const { url } = await sign(key, 1000);
    await new Promise<void>((resolve) => {
      const req = http.request(url, { method: 'PUT', headers: { 'content-type': PDF, 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write(new Uint8Array(400), () => setTimeout(() => req.destroy(), 50));
    });
    // The server notices the reset asynchronously.
    for (let i = 0; i < 50 && (await listFiles(path.join(server.directory, 'tmp'))).length > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 50));
    await expectNothingStored(key);
  });

  it('refuses keys that would leave the directory, over HTTP and in every method', async function () {
    const bad = ['../evil.pdf', 'user-1/../../evil.pdf', '/etc/passwd', 'user-1//x.pdf', 'user-1/./x.pdf', 'a\\..\\evil', 'nul\u0000byte', '', 'user-1/'];
    for (const key of bad) {
      await expectRejects(sign(key, 4), ValidationError);
      await expectRejects(server.store.stat(key), ValidationError);
      await expectRejects(server.store.read(key), ValidationError);
      await expectRejects(server.store.remove(key), ValidationError);
    }
    // Encoded slashes survive URL normalisation and reach the route as `../../evil.pdf`.
    const good = await sign(newKey(), 4);
    const query = new URL(good.url).search;
    for (const pathPart of ['..%2F..%2Fevil.pdf', '%2E%2E%2F%2E%2E%2Fevil.pdf', 'user-1%2F..%2F..%2F..%2Fevil.pdf']) {
      const status = await httpPut(`${server.baseUrl}/uploads/${pathPart}${query}`, new Uint8Array(4), PDF);
      expect(status, pathPart).to.be.oneOf([400, 403]);
    }
    // Even with a valid-looking signature for the traversal key the store refuses before touching disk.
    const direct = await server.store.acceptUpload({
      key: '../../evil.pdf',
      query: Object.fromEntries(new URL(good.url).searchParams),
      contentType: PDF,
      contentLength: 4,
      body: [new Uint8Array(4)].values() as unknown as AsyncIterable<Uint8Array>,
    });
    expect(direct.status).to.equal(400);
    expect(await listFiles(server.parent)).to.satisfy((files: string[]) => files.every((f) => f.startsWith('store/')));
  });

  it('PUT on /uploads without a key or with another method is not handled', async function () {
    expect((await fetch(`${server.baseUrl}/uploads/`, { method: 'PUT', body: 'x' })).status).to.equal(404);
    const { url } = await sign(newKey(), 4);
    expect((await fetch(url, { method: 'POST', body: new Uint8Array(4), headers: { 'content-type': PDF } })).status).to.be.oneOf([404, 405]);
  });
});

describe('LocalBlobStore with the default limit', function () {
  let server: LocalUploadServer;

  before(async function () {
    server = await startLocalUploadServer();
  });

  after(async function () {
    await server?.stop();
  });

  it('limits uploads to 52428800 bytes: 50 MB can be signed, one byte more cannot', async function () {
    expect(server.store.maxBytes).to.equal(52_428_800);
    const key = 'user-1/big.pdf';
    await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 52_428_800, expiresInSeconds: 3600 });
    await expectRejects(
      server.store.createUploadUrl({ key, contentType: PDF, contentSize: 52_428_801, expiresInSeconds: 3600 }),
      ValidationError,
    );
  });

  it('refuses a Content-Length over 50 MB before reading the body', async function () {
    const key = 'user-1/huge.pdf';
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 1000, expiresInSeconds: 3600 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: 'PUT', headers: { 'content-type': PDF, 'content-length': String(60 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write(new Uint8Array(1024)); // never sends the rest
    });
    expect(status).to.equal(413);
    expect(await server.store.stat(key)).to.equal(null);
  });

  it('a client streaming megabytes past the limit gets the 413 promptly (fetch, streamed body)', async function () {
    const key = 'user-1/streamed-too-much.pdf';
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 1000, expiresInSeconds: 60 });
    async function* megabytes(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 64; i++) yield new Uint8Array(64 * 1024);
    }
    const started = Date.now();
    const response = await fetch(url, {
      method: 'PUT',
      body: ReadableStream.from(megabytes()),
      headers: { 'content-type': PDF },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).to.equal(413);
    await response.arrayBuffer();
    expect(Date.now() - started).to.be.below(3000);
    expect(await server.store.stat(key)).to.equal(null);
    expect(await listFiles(path.join(server.directory, 'tmp'))).to.deep.equal([]);
  });

  it('after refusing a body it stopped reading, the server drains the rest instead of leaving the connection hanging', async function () {
    const key = 'user-1/drained.pdf';
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 1000, expiresInSeconds: 60 });
    const outcome = await rawChunkedPut(url, 128); // 8 MB
    expect(outcome.response).to.match(/^HTTP\/1\.1 413 /);
    expect(outcome.written, 'chunks the server took').to.equal(128);
    expect(outcome.timedOut).to.equal(false);
    expect(await server.store.stat(key)).to.equal(null);
  });

  it('streams a multi-megabyte upload to disk', async function () {
    const key = 'user-1/three-mb.pdf';
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 256);
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: bytes.length, expiresInSeconds: 3600 });
    expect(await httpPut(url, bytes, PDF)).to.equal(200);
    expect(Buffer.from(await server.store.read(key)).equals(Buffer.from(bytes))).to.equal(true);
  });

  it('rejects bad configuration', function () {
    const base = { directory: server.directory, publicUrl: server.baseUrl, secret: SECRET };
    expect(() => new LocalBlobStore({ ...base, secret: 'short' })).to.throw(/secret/);
    expect(() => new LocalBlobStore({ ...base, publicUrl: 'not a url' })).to.throw(/publicUrl/);
    expect(() => new LocalBlobStore({ ...base, maxBytes: 0 })).to.throw(/maxBytes/);
  });

  it('keeps a path prefix of publicUrl and passes check()', async function () {
    const store = new LocalBlobStore({ directory: server.directory, publicUrl: 'https://docs.example.com/files/', secret: SECRET });
    const { url } = await store.createUploadUrl({ key: 'u/ü x.pdf', contentType: PDF, contentSize: 1, expiresInSeconds: 60 });
    expect(url).to.match(/^https:\/\/docs\.example\.com\/files\/uploads\/u\/%C3%BC%20x\.pdf\?expires=\d+&type=application%2Fpdf&size=1&sig=[0-9a-f]{64}$/);
    await store.check();
  });
});

describe('LocalBlobStore on disk', function () {
  let server: LocalUploadServer;
  before(async function () {
    server = await startLocalUploadServer();
  });
  after(async function () {
    await server?.stop();
  });

  it('remove keeps the sidecar until the URL expires, init drops it after; a key that is only a directory counts as missing', async function () {
    const key = 'user-9/folder/doc.pdf';
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 2, expiresInSeconds: 60 });
    expect(await httpPut(url, new Uint8Array(2), PDF)).to.equal(200);
    expect(await listFiles(server.directory)).to.deep.equal(['meta/user-9/folder/doc.pdf.json', 'objects/user-9/folder/doc.pdf']);
    expect(await server.store.stat('user-9/folder')).to.equal(null);
    await server.store.remove('user-9/folder');
    await expectRejects(server.store.read('user-9/folder'), NotFoundError);
    await server.store.remove(key);
    expect(await listFiles(server.directory)).to.deep.equal(['meta/user-9/folder/doc.pdf.json']);
    const later = new LocalBlobStore({ directory: server.directory, publicUrl: server.baseUrl, secret: SECRET, clock: { now: () => new Date(Date.now() + 61_000) } });
    await later.init();
    expect(await listFiles(server.directory)).to.deep.equal([]);
  });

  it('stat without a sidecar still reports the size', async function () {
    const key = 'user-9/no-sidecar.pdf';
    const { url } = await server.store.createUploadUrl({ key, contentType: PDF, contentSize: 3, expiresInSeconds: 60 });
    expect(await httpPut(url, new Uint8Array(3), PDF)).to.equal(200);
    await fs.rm(path.join(server.directory, 'meta', `${key}.json`));
    expect(await server.store.stat(key)).to.deep.equal({ size: 3 });
    await server.store.remove(key);
  });
});
