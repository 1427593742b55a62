import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { S3BlobStore } from '../../../adapters/s3/s3-blob-store.js';
import { blobStoreContract } from '../../contracts/blob-store.contract.js';
import { OBJECT_STORE_COMMAND, OBJECT_STORE_IMAGE, OBJECT_STORE_S3_PORT } from '../../support/container-images.js';
import { skipWithoutContainerRuntime } from '../../support/container-runtime.js';

/**
 * The BlobStore contract and the signature checks s3rver cannot do, against the object store docker-compose.yml runs
 * (SeaweedFS), started the same way. Needs a container runtime (Docker/Podman); without one every test is skipped.
 */
const IMAGE = process.env.TEST_OBJECT_STORE_IMAGE ?? OBJECT_STORE_IMAGE;
const ACCESS_KEY = 'doc-chat-test';
const SECRET_KEY = 'doc-chat-test-secret';
const BUCKET = 'documents';

let container: StartedTestContainer | undefined;
let endpoint = '';

async function put(url: string, body: Uint8Array, contentType: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType, ...headers } });
  await response.arrayBuffer();
  return response.status;
}

describe(`S3BlobStore against ${IMAGE} in a container (Testcontainers)`, function () {
  this.timeout(180_000);

  before(async function () {
    await skipWithoutContainerRuntime(this, 'SeaweedFS');
    container = await new GenericContainer(IMAGE)
      .withCommand([...OBJECT_STORE_COMMAND])
      // With these set, the S3 API has one admin identity and checks every signature (unset: it allows everyone).
      .withEnvironment({ AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET_KEY })
      .withExposedPorts(OBJECT_STORE_S3_PORT)
      // /healthz answers once the S3 server is up, which mini starts after the master, volume and filer servers.
      .withWaitStrategy(Wait.forHttp('/healthz', OBJECT_STORE_S3_PORT))
      .start();
    endpoint = `http://${container.getHost()}:${container.getMappedPort(OBJECT_STORE_S3_PORT)}`;
  });

  after(async function () {
    await container?.stop();
  });

  blobStoreContract('S3BlobStore against SeaweedFS', async () => {
    const store = new S3BlobStore({ endpoint, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, bucket: BUCKET });
    await store.init();
    await store.check();
    return { store, upload: (url, body, contentType) => put(url, body, contentType), cleanup: async () => {} };
  }, { singleUseUploads: false });

  describe('signature checks', function () {
    const newKey = (): string => `user-1/${randomUUID()}-doc.pdf`;
    const request = (key: string) => ({ key, contentType: 'application/pdf', contentSize: 4, expiresInSeconds: 3600 });
    let store: S3BlobStore;

    before(async function () {
      store = new S3BlobStore({ endpoint, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, bucket: BUCKET });
      await store.init();
    });

    it('refuses a tampered signature, key or expiry with 403 and stores nothing', async function () {
      const key = newKey();
      const { url } = await store.createUploadUrl(request(key));
      const sig = new URL(url).searchParams.get('X-Amz-Signature')!;
      const tampered = [
        url.replace(`X-Amz-Signature=${sig}`, `X-Amz-Signature=${(sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)}`),
        url.replace('X-Amz-Expires=3600', 'X-Amz-Expires=7200'),
        url.replace('/user-1/', '/user-2/'),
      ];
      for (const bad of tampered) expect(await put(bad, new Uint8Array(4), 'application/pdf'), bad).to.equal(403);
      expect(await store.stat(key)).to.equal(null);
      expect(await store.stat(key.replace('user-1/', 'user-2/'))).to.equal(null);
    });

    it('refuses an expired URL with 403', async function () {
      const key = newKey();
      const past = new S3BlobStore({
        endpoint,
        accessKey: ACCESS_KEY,
        secretKey: SECRET_KEY,
        bucket: BUCKET,
        clock: { now: () => new Date(Date.now() - 2 * 3600_000) },
      });
      const { url } = await past.createUploadUrl(request(key));
      expect(await put(url, new Uint8Array(4), 'application/pdf')).to.equal(403);
      expect(await store.stat(key)).to.equal(null);
    });

    it('refuses a URL signed with other credentials', async function () {
      const key = newKey();
      const wrong = new S3BlobStore({ endpoint, accessKey: ACCESS_KEY, secretKey: 'not-the-secret', bucket: BUCKET });
      expect(await put((await wrong.createUploadUrl(request(key))).url, new Uint8Array(4), 'application/pdf')).to.equal(403);
      expect(await store.stat(key)).to.equal(null);
    });

    it('a URL signed for the public host works there; one signed for the internal host fails under another Host', async function () {
      const host = container!.getHost();
      const port = container!.getMappedPort(OBJECT_STORE_S3_PORT);
      const other = host === 'localhost' ? '127.0.0.1' : host === '127.0.0.1' ? 'localhost' : undefined;
      if (!other) this.skip(); // remote Docker host: no second name for the same server
      const publicUrl = `http://${other}:${port}`;

      const viaPublic = new S3BlobStore({ endpoint, publicUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, bucket: BUCKET });
      const key = newKey();
      const { url } = await viaPublic.createUploadUrl(request(key));
      expect(new URL(url).host).to.equal(`${other}:${port}`);
      expect(await put(url, new Uint8Array(4), 'application/pdf')).to.equal(200);
      expect((await store.stat(key))?.size).to.equal(4);

      // Signed for `host`, sent to `other`: the Host header differs from the signed one.
      const internalUrl = (await store.createUploadUrl(request(newKey()))).url;
      expect(await put(internalUrl.replace(`//${host}:`, `//${other}:`), new Uint8Array(4), 'application/pdf')).to.equal(403);
    });

    it('does not bind Content-Type or size (documented limitation: check stat() after upload)', async function () {
      const key = newKey();
      const { url } = await store.createUploadUrl(request(key));
      expect(await put(url, new Uint8Array(10), 'text/html')).to.equal(200);
      // include, not equal: stat() also reports the server's etag.
      expect(await store.stat(key)).to.deep.include({ size: 10, contentType: 'text/html' });
      await store.remove(key);
    });
  });
});
