import { expect } from 'chai';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import { InMemoryBlobStore } from '../fakes/in-memory-blob-store.js';
import { blobStoreContract } from './blob-store.contract.js';

for (const singleUseUploads of [true, false]) {
  blobStoreContract(`InMemoryBlobStore (${singleUseUploads ? 'single-use URLs, as the local store' : 'replayable URLs, as S3'})`, async () => {
    const store = new InMemoryBlobStore({ singleUseUploads });
    return {
      store,
      upload: async (url, body, contentType) => store.putViaUrl(url, body, contentType),
      cleanup: async () => {},
    };
  }, { singleUseUploads });
}

describe('InMemoryBlobStore (fake) checks what the upload URL was made for', function () {
  let now = new Date('2030-01-01T00:00:00Z');
  const store = new InMemoryBlobStore({ clock: { now: () => now } });
  const request = { key: 'u1/abc-file.pdf', contentType: 'application/pdf', contentSize: 3, expiresInSeconds: 60 };

  it('refuses wrong type, wrong size, tampered key and expired URLs, storing nothing', async function () {
    const { url } = await store.createUploadUrl(request);
    expect(store.putViaUrl(url, new Uint8Array(3), 'image/jpeg')).to.equal(415);
    expect(store.putViaUrl(url, new Uint8Array(4), 'application/pdf')).to.equal(413);
    expect(store.putViaUrl(url, new Uint8Array(2), 'application/pdf')).to.equal(400);
    expect(store.putViaUrl(url.replace('abc-file', 'other'), new Uint8Array(3), 'application/pdf')).to.equal(403);
    now = new Date(now.getTime() + 60_000);
    expect(store.putViaUrl(url, new Uint8Array(3), 'application/pdf')).to.equal(403);
    expect(store.keys()).to.deep.equal([]);
  });

  it('can simulate an outage', async function () {
    store.setUnavailable(true);
    try {
      await store.stat('x');
      expect.fail('expected UpstreamUnavailableError');
    } catch (error) {
      expect(error).to.be.instanceOf(UpstreamUnavailableError);
    } finally {
      store.setUnavailable(false);
    }
  });
});
