import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { NotFoundError } from '../../core/domain/errors.js';
import type { BlobStore } from '../../core/ports/blob-store.js';

export interface BlobStoreSubject {
  store: BlobStore;
  /** Sends `body` with HTTP PUT (or the fake's equivalent) to an upload URL; resolves to the status. */
  upload(url: string, body: Uint8Array, contentType: string): Promise<number>;
  cleanup(): Promise<void>;
}

export interface BlobStoreTraits {
  /**
   * true: an upload URL works once, a second PUT to the key is refused with 409 (the local store).
   * false: a second PUT replaces the object until the URL expires (S3 presigned URLs cannot refuse it).
   */
  singleUseUploads: boolean;
}

/** Behaviour every BlobStore adapter must have. One subject per suite; every test uses fresh keys. */
export function blobStoreContract(name: string, makeSubject: () => Promise<BlobStoreSubject>, traits: BlobStoreTraits): void {
  describe(`BlobStore contract: ${name}`, function () {
    let subject: BlobStoreSubject | undefined;
    const s = (): BlobStoreSubject => {
      if (!subject) throw new Error('subject not created');
      return subject;
    };
    const newKey = (filename = 'report.pdf'): string => `user-${randomUUID().slice(0, 8)}/${randomUUID()}-${filename}`;

    async function uploadNew(key: string, bytes: Uint8Array, contentType = 'application/pdf'): Promise<void> {
      const { url } = await s().store.createUploadUrl({ key, contentType, contentSize: bytes.byteLength, expiresInSeconds: 3600 });
      const status = await s().upload(url, bytes, contentType);
      expect(status, `upload status for ${key}`).to.be.within(200, 299);
    }

    async function expectNotFound(promise: Promise<unknown>): Promise<void> {
      try {
        await promise;
      } catch (error) {
        expect(error).to.be.instanceOf(NotFoundError);
        return;
      }
      expect.fail('expected NotFoundError');
    }

    before(async function () {
      subject = await makeSubject();
    });

    after(async function () {
      await subject?.cleanup();
    });

    it('stores bytes uploaded through the upload URL: stat reports size (and type), read returns them', async function () {
      const key = newKey();
      const bytes = new Uint8Array(randomBytes(4096));
      await uploadNew(key, bytes);

      const info = await s().store.stat(key);
      expect(info).to.not.equal(null);
      expect(info!.size).to.equal(bytes.byteLength);
      if (info!.contentType !== undefined) expect(info!.contentType).to.equal('application/pdf');
      expect(Buffer.from(await s().store.read(key)).equals(Buffer.from(bytes))).to.equal(true);
    });

    it('round-trips every byte value and a larger body unchanged', async function () {
      const key = newKey('scan.jpg');
      const bytes = new Uint8Array(300 * 1024 + 7);
      for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
      await uploadNew(key, bytes, 'image/jpeg');
      const info = await s().store.stat(key);
      expect(info?.size).to.equal(bytes.byteLength);
      if (info?.contentType !== undefined) expect(info.contentType).to.equal('image/jpeg');
      expect(Buffer.from(await s().store.read(key)).equals(Buffer.from(bytes))).to.equal(true);
    });

    it('returns an upload URL with expiresAt about now + expiresInSeconds', async function () {
      const before = Date.now();
      const result = await s().store.createUploadUrl({
        key: newKey(),
        contentType: 'application/pdf',
        contentSize: 10,
        expiresInSeconds: 3600,
      });
      const after = Date.now();
      expect(result.url).to.be.a('string').and.not.equal('');
      expect(() => new URL(result.url)).to.not.throw();
      expect(result.expiresAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      const expiresAt = Date.parse(result.expiresAt);
      expect(expiresAt).to.be.within(before + 3600_000 - 2000, after + 3600_000 + 2000);
    });

    it('gives different URLs for different keys', async function () {
      const request = { contentType: 'application/pdf', contentSize: 10, expiresInSeconds: 3600 };
      const a = await s().store.createUploadUrl({ ...request, key: newKey() });
      const b = await s().store.createUploadUrl({ ...request, key: newKey() });
      expect(a.url).to.not.equal(b.url);
    });

    it('streams an object in order, in pieces that together are its bytes; each stream starts from the beginning', async function () {
      const key = newKey('long.pdf');
      const bytes = new Uint8Array(3 * 1024 * 1024 + 11);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
      await uploadNew(key, bytes);
      for (let pass = 0; pass < 2; pass++) {
        const pieces: Uint8Array[] = [];
        for await (const piece of s().store.stream(key)) pieces.push(piece);
        expect(pieces.length, 'pieces').to.be.greaterThan(1);
        expect(Buffer.concat(pieces).equals(Buffer.from(bytes)), `pass ${pass + 1}`).to.equal(true);
      }
    });

    it('streaming a missing key throws NotFoundError', async function () {
      const drain = async () => {
        for await (const piece of s().store.stream(newKey())) void piece;
      };
      await expectNotFound(drain());
    });

    it('stat of a missing key is null', async function () {
      expect(await s().store.stat(newKey())).to.equal(null);
    });

    it('read of a missing key throws NotFoundError', async function () {
      await expectNotFound(s().store.read(newKey()));
    });

    it('remove deletes the object: stat is null and read throws NotFoundError afterwards', async function () {
      const key = newKey();
      await uploadNew(key, new TextEncoder().encode('%PDF-1.4 hello'));
      expect(await s().store.stat(key)).to.not.equal(null);
      await s().store.remove(key);
      expect(await s().store.stat(key)).to.equal(null);
      await expectNotFound(s().store.read(key));
    });

    it('removing a missing key is not an error (and removing twice is fine)', async function () {
      const key = newKey();
      await s().store.remove(key);
      await uploadNew(key, new Uint8Array([1, 2, 3]));
      await s().store.remove(key);
      await s().store.remove(key);
      expect(await s().store.stat(key)).to.equal(null);
    });

    it('handles keys with unicode and URL-special characters', async function () {
      const keys = [
        newKey('Übersicht_日本語_файл_🙂.pdf'),
        newKey("a+b_(1)_%25_&_=_'quote'_#hash?.pdf"),
      ];
      for (const key of keys) {
        const bytes = new TextEncoder().encode(`content of ${key}`);
        await uploadNew(key, bytes);
        expect((await s().store.stat(key))?.size, key).to.equal(bytes.byteLength);
        expect(new TextDecoder().decode(await s().store.read(key)), key).to.equal(`content of ${key}`);
        await s().store.remove(key);
        expect(await s().store.stat(key), key).to.equal(null);
      }
    });

    it('keeps objects under different keys apart, including one key that prefixes another', async function () {
      const user = `user-${randomUUID().slice(0, 8)}`;
      const a = `${user}/${randomUUID()}-a.pdf`;
      const b = `${user}/${randomUUID()}-b.pdf`;
      await uploadNew(a, new Uint8Array([1]));
      await uploadNew(b, new Uint8Array([2, 2]));
      expect((await s().store.stat(a))?.size).to.equal(1);
      expect((await s().store.stat(b))?.size).to.equal(2);
      await s().store.remove(a);
      expect(await s().store.stat(a)).to.equal(null);
      expect((await s().store.stat(b))?.size).to.equal(2);
      expect(await s().store.stat(user)).to.equal(null);
    });

    it('reports an etag that identifies the stored version: the same on every stat, another for other content', async function () {
      const a = newKey();
      const b = newKey();
      await uploadNew(a, new Uint8Array([1, 2, 3]));
      await uploadNew(b, new Uint8Array([3, 2, 1]));
      const first = (await s().store.stat(a))?.etag;
      expect(first).to.be.a('string').and.not.equal('');
      expect((await s().store.stat(a))?.etag).to.equal(first);
      expect((await s().store.stat(b))?.etag).to.be.a('string').and.not.equal(first);
    });

    it('write stores bytes the service made, with their type; writing again replaces them; remove deletes them', async function () {
      const key = newKey('contract.pdf');
      const written = await s().store.write(key, new Uint8Array([7, 8, 9]), 'application/pdf');
      const info = await s().store.stat(key);
      expect(info).to.include({ size: 3, contentType: 'application/pdf' });
      expect(written).to.include({ size: 3, etag: info?.etag });
      expect([...(await s().store.read(key))]).to.deep.equal([7, 8, 9]);
      const again = await s().store.write(key, new Uint8Array([1, 2]), 'application/pdf');
      expect([...(await s().store.read(key))]).to.deep.equal([1, 2]);
      expect(again.etag).to.equal((await s().store.stat(key))?.etag).and.not.equal(info?.etag);
      await s().store.remove(key);
      expect(await s().store.stat(key)).to.equal(null);
    });

    if (traits.singleUseUploads) {
      it('an upload URL works once: a second PUT, a new URL for the key, or a PUT after remove is refused (409)', async function () {
        const key = newKey();
        const request = { key, contentType: 'application/pdf', contentSize: 5, expiresInSeconds: 3600 };
        const { url } = await s().store.createUploadUrl(request);
        expect(await s().upload(url, new Uint8Array([1, 2, 3, 4, 5]), 'application/pdf')).to.equal(200);
        const etag = (await s().store.stat(key))?.etag;
        expect(await s().upload(url, new Uint8Array([9, 9, 9, 9, 9]), 'application/pdf')).to.equal(409);
        const again = await s().store.createUploadUrl(request);
        expect(await s().upload(again.url, new Uint8Array([9, 9, 9, 9, 9]), 'application/pdf')).to.equal(409);
        expect([...(await s().store.read(key))]).to.deep.equal([1, 2, 3, 4, 5]);
        expect((await s().store.stat(key))?.etag).to.equal(etag);
        await s().store.remove(key);
        expect(await s().upload(url, new Uint8Array([9, 9, 9, 9, 9]), 'application/pdf')).to.equal(409);
        expect(await s().store.stat(key)).to.equal(null);
      });
    } else {
      it('a second PUT to the same URL replaces the object, and the etag tells', async function () {
        const key = newKey();
        const { url } = await s().store.createUploadUrl({ key, contentType: 'application/pdf', contentSize: 5, expiresInSeconds: 3600 });
        expect(await s().upload(url, new Uint8Array([1, 2, 3, 4, 5]), 'application/pdf')).to.equal(200);
        const first = (await s().store.stat(key))?.etag;
        expect(await s().upload(url, new Uint8Array([9, 8, 7, 6, 5]), 'application/pdf')).to.equal(200);
        expect([...(await s().store.read(key))]).to.deep.equal([9, 8, 7, 6, 5]);
        expect((await s().store.stat(key))?.etag).to.be.a('string').and.not.equal(first);
      });
    }

    it('creating an upload URL stores nothing', async function () {
      const key = newKey();
      await s().store.createUploadUrl({ key, contentType: 'application/pdf', contentSize: 10, expiresInSeconds: 3600 });
      expect(await s().store.stat(key)).to.equal(null);
    });
  });
}
