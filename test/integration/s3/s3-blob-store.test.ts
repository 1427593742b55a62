import net from 'node:net';
import { expect } from 'chai';
import { UpstreamUnavailableError, ValidationError } from '../../../core/domain/errors.js';
import { S3BlobStore, type S3BlobStoreOptions } from '../../../adapters/s3/s3-blob-store.js';
import { startS3Server, type S3Server } from '../../support/s3-server.js';

const credentials = { accessKey: 'docchat', secretKey: 'docchat', bucket: 'documents' };
const request = { key: 'user-1/abc-Übersicht.pdf', contentType: 'application/pdf', contentSize: 5, expiresInSeconds: 3600 };

async function expectUnavailable(promise: Promise<unknown>): Promise<UpstreamUnavailableError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).dependency).to.equal('object storage');
    expect((error as UpstreamUnavailableError).code).to.equal('UPSTREAM_UNAVAILABLE');
    return error as UpstreamUnavailableError;
  }
  return expect.fail('expected UpstreamUnavailableError');
}

describe('S3BlobStore without a reachable server', function () {
  const store = new S3BlobStore({ ...credentials, endpoint: 'http://127.0.0.1:1' });

  it('stat, read, remove, init and check fail with UpstreamUnavailableError (connection refused)', async function () {
    for (const op of [store.stat('x'), store.read('x'), store.remove('x'), store.init(), store.check()]) {
      const error = await expectUnavailable(op);
      expect(error.message).to.contain('ECONNREFUSED');
    }
  });

  it('an unknown host gives UpstreamUnavailableError (ENOTFOUND)', async function () {
    const unknown = new S3BlobStore({ ...credentials, endpoint: 'http://no-such-host.invalid:9000' });
    const error = await expectUnavailable(unknown.stat('x'));
    expect(error.message).to.match(/ENOTFOUND|EAI_AGAIN/);
  });

  describe('a server that accepts connections but never answers', function () {
    let silent: net.Server;
    const sockets = new Set<net.Socket>();
    before(async function () {
      silent = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    });
    after(async function () {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('times out into UpstreamUnavailableError after timeoutMs', async function () {
      const port = (silent.address() as net.AddressInfo).port;
      const slow = new S3BlobStore({ ...credentials, endpoint: `http://127.0.0.1:${port}`, timeoutMs: 200 });
      const started = Date.now();
      const error = await expectUnavailable(slow.stat('x'));
      expect(error.message).to.contain('ETIMEDOUT');
      expect(Date.now() - started).to.be.below(2000);
      await expectUnavailable(slow.read('x'));
    });
  });

  it('presigns without any network call (region set), valid for expiresInSeconds', async function () {
    const started = Date.now();
    const { url, expiresAt } = await store.createUploadUrl(request);
    const parsed = new URL(url);
    expect(parsed.host).to.equal('127.0.0.1:1');
    expect(parsed.pathname).to.equal('/documents/user-1/abc-%C3%9Cbersicht.pdf');
    expect(parsed.searchParams.get('X-Amz-Expires')).to.equal('3600');
    expect(parsed.searchParams.get('X-Amz-SignedHeaders')).to.equal('host');
    expect(parsed.searchParams.get('X-Amz-Credential')).to.match(/^docchat\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(Date.parse(expiresAt)).to.be.within(started + 3600_000 - 1000, Date.now() + 3600_000);
  });

  it('signs for the public host when publicUrl is set, keeping a path prefix', async function () {
    const options: S3BlobStoreOptions = { ...credentials, endpoint: 'http://seaweedfs:8333', publicUrl: 'https://files.example.com/s3/' };
    const { url } = await new S3BlobStore(options).createUploadUrl(request);
    expect(url.startsWith('https://files.example.com/s3/documents/user-1/abc-%C3%9Cbersicht.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&')).to.equal(true);
    const internal = await new S3BlobStore({ ...options, publicUrl: undefined }).createUploadUrl(request);
    expect(new URL(internal.url).host).to.equal('seaweedfs:8333');
    // Same time, same key, different Host → different signature.
    expect(new URL(internal.url).searchParams.get('X-Amz-Signature')).to.not.equal(new URL(url).searchParams.get('X-Amz-Signature'));
  });

  it('uses the injected clock for X-Amz-Date and expiresAt', async function () {
    const clock = { now: () => new Date('2030-01-02T03:04:05.678Z') };
    const { url, expiresAt } = await new S3BlobStore({ ...credentials, endpoint: 'http://127.0.0.1:1', clock }).createUploadUrl(request);
    expect(new URL(url).searchParams.get('X-Amz-Date')).to.equal('20300102T030405Z');
    expect(expiresAt).to.equal('2030-01-02T04:04:05.000Z');
  });

  it('refuses to sign sizes over 50 MB and bad expiries', async function () {
    for (const bad of [{ contentSize: 52_428_801 }, { contentSize: -1 }, { expiresInSeconds: 0 }, { expiresInSeconds: 8 * 24 * 3600 }]) {
      try {
        await store.createUploadUrl({ ...request, ...bad });
        expect.fail(`expected ValidationError for ${JSON.stringify(bad)}`);
      } catch (error) {
        expect(error, JSON.stringify(bad)).to.be.instanceOf(ValidationError);
      }
    }
  });

  it('rejects bad configuration', function () {
    expect(() => new S3BlobStore({ ...credentials, endpoint: 'seaweedfs:8333' })).to.throw(/endpoint/);
    expect(() => new S3BlobStore({ ...credentials, endpoint: 'ftp://seaweedfs' })).to.throw(/endpoint/);
    expect(() => new S3BlobStore({ ...credentials, endpoint: 'http://seaweedfs:8333/sub' })).to.throw(/path/);
    expect(() => new S3BlobStore({ ...credentials, endpoint: 'http://seaweedfs:8333', bucket: '' })).to.throw(/bucket/);
  });
});

describe('S3BlobStore init and check against s3rver', function () {
  let s3: S3Server;
  before(async function () {
    s3 = await startS3Server({ buckets: ['existing'] });
  });
  after(async function () {
    await s3?.stop();
  });
  const make = (bucket: string) =>
    new S3BlobStore({ endpoint: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket });

  it('check fails while the bucket is missing; init creates it and is idempotent', async function () {
    const store = make('created-by-init');
    await expectUnavailable(store.check());
    await store.init();
    await store.init();
    await store.check();
  });

  it('init leaves an existing bucket and its objects alone', async function () {
    const store = make('existing');
    const { url } = await store.createUploadUrl({ ...request, key: 'u/keep.pdf' });
    expect((await fetch(url, { method: 'PUT', body: new Uint8Array(5), headers: { 'content-type': 'application/pdf' } })).status).to.equal(200);
    await store.init();
    expect(await store.stat('u/keep.pdf')).to.include({ size: 5, contentType: 'application/pdf' }).and.have.property('etag').that.is.a('string');
  });
});

describe('doc-chat/adapters/s3 keeps its old names (it was doc-chat/adapters/minio)', function () {
  it('MinioBlobStore is S3BlobStore, so programs written against the old entry keep working', async function () {
    const entry = await import('../../../adapters/s3/index.js');
    expect(entry.MinioBlobStore).to.equal(entry.S3BlobStore);
    const old = new entry.MinioBlobStore({ ...credentials, endpoint: 'http://127.0.0.1:1' });
    expect(old).to.be.instanceOf(S3BlobStore);
    expect(new URL((await old.createUploadUrl(request)).url).pathname).to.equal('/documents/user-1/abc-%C3%9Cbersicht.pdf');
  });
});
