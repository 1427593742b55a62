import { expect } from 'chai';
import type { UploadLimits, UploadRecord, UploadRepo } from '../../core/ports/upload-repo.js';

export interface UploadRepoSubject {
  uploads: UploadRepo;
  cleanup(): Promise<void>;
}

const HOUR = 3600_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const record = (key: string, overrides: Partial<UploadRecord> = {}): UploadRecord => ({
  key,
  userId: 'u1',
  contentType: 'application/pdf',
  declaredSize: 100,
  issuedAt: at(0),
  expiresAt: at(HOUR),
  ...overrides,
});

const roomy: UploadLimits = { maxPendingUploads: 100, storageQuotaBytes: 1_000_000 };

/** Behaviour every UploadRepo implementation must have. */
export function uploadRepoContract(name: string, makeSubject: () => Promise<UploadRepoSubject>): void {
  describe(`UploadRepo contract: ${name}`, () => {
    let s: UploadRepoSubject;
    beforeEach(async () => {
      s = await makeSubject();
    });
    afterEach(async () => s.cleanup());

    it('records an upload and finds it by key; an unknown key is null', async () => {
      expect(await s.uploads.reserve(record('u1/a.pdf', { contentType: 'image/jpeg', declaredSize: 7 }), roomy)).to.deep.equal({ ok: true });
      expect(await s.uploads.findByKey('u1/a.pdf')).to.deep.equal(record('u1/a.pdf', { contentType: 'image/jpeg', declaredSize: 7 }));
      expect(await s.uploads.findByKey('u1/missing.pdf')).to.equal(null);
    });

    it('refuses past the storage quota, counting every record of the user (ingested or not) and nobody else’s', async () => {
      const limits = { maxPendingUploads: 100, storageQuotaBytes: 250 };
      expect(await s.uploads.reserve(record('u1/a', { declaredSize: 100 }), limits)).to.deep.equal({ ok: true });
      await s.uploads.markIngested('u1/a', at(10), 'etag-a');
      expect(await s.uploads.reserve(record('u1/b', { declaredSize: 150 }), limits)).to.deep.equal({ ok: true });
      expect(await s.uploads.reserve(record('u1/c', { declaredSize: 1 }), limits)).to.deep.equal({ ok: false, reason: 'storage-quota', storedBytes: 250 });
      expect(await s.uploads.reserve(record('u2/c', { userId: 'u2', declaredSize: 250 }), limits)).to.deep.equal({ ok: true });
      expect(await s.uploads.findByKey('u1/c')).to.equal(null);
    });

    it('refuses past the pending limit, counting only uploads neither ingested nor expired', async () => {
      const limits = { maxPendingUploads: 2, storageQuotaBytes: 1_000_000 };
      await s.uploads.reserve(record('u1/a'), limits);
      await s.uploads.reserve(record('u1/b'), limits);
      expect(await s.uploads.reserve(record('u1/c'), limits)).to.deep.equal({ ok: false, reason: 'pending-uploads', pending: 2 });
      await s.uploads.markIngested('u1/a', at(10), undefined);
      expect(await s.uploads.reserve(record('u1/c'), limits)).to.deep.equal({ ok: true });
      // An hour later both pending URLs have expired.
      expect(await s.uploads.reserve(record('u1/d', { issuedAt: at(HOUR), expiresAt: at(2 * HOUR) }), limits)).to.deep.equal({ ok: true });
      expect(await s.uploads.reserve(record('u2/a', { userId: 'u2' }), limits)).to.deep.equal({ ok: true });
    });

    it('checks the quota before the pending limit', async () => {
      const limits = { maxPendingUploads: 1, storageQuotaBytes: 150 };
      await s.uploads.reserve(record('u1/a'), limits);
      expect(await s.uploads.reserve(record('u1/b'), limits)).to.deep.include({ ok: false, reason: 'storage-quota' });
      expect(await s.uploads.reserve(record('u1/c', { declaredSize: 10 }), limits)).to.deep.include({ ok: false, reason: 'pending-uploads' });
    });

    it('keeps the first ingest’s time and etag; a key without record is null', async () => {
      await s.uploads.reserve(record('u1/a'), roomy);
      expect(await s.uploads.markIngested('u1/a', at(10), 'first')).to.deep.equal(record('u1/a', { ingestedAt: at(10), etag: 'first' }));
      expect(await s.uploads.markIngested('u1/a', at(20), 'second')).to.deep.equal(record('u1/a', { ingestedAt: at(10), etag: 'first' }));
      await s.uploads.reserve(record('u1/b'), roomy);
      expect(await s.uploads.markIngested('u1/b', at(10), undefined)).to.deep.equal(record('u1/b', { ingestedAt: at(10) }));
      expect(await s.uploads.markIngested('u1/b', at(20), 'later')).to.deep.equal(record('u1/b', { ingestedAt: at(10), etag: 'later' }));
      expect(await s.uploads.markIngested('u1/none', at(10), 'x')).to.equal(null);
    });

    it('lists never-ingested uploads whose URL expired, oldest expiry first, up to the limit', async () => {
      await s.uploads.reserve(record('u1/late', { expiresAt: at(3 * HOUR) }), roomy);
      await s.uploads.reserve(record('u1/early', { expiresAt: at(HOUR) }), roomy);
      await s.uploads.reserve(record('u2/mid', { userId: 'u2', expiresAt: at(2 * HOUR) }), roomy);
      await s.uploads.reserve(record('u1/done', { expiresAt: at(HOUR) }), roomy);
      await s.uploads.markIngested('u1/done', at(10), undefined);
      expect((await s.uploads.listExpiredPending(at(2 * HOUR), 10)).map((r) => r.key)).to.deep.equal(['u1/early', 'u2/mid']);
      expect((await s.uploads.listExpiredPending(at(5 * HOUR), 2)).map((r) => r.key)).to.deep.equal(['u1/early', 'u2/mid']);
      expect(await s.uploads.listExpiredPending(at(HOUR - 1), 10)).to.deep.equal([]);
    });

    it('deletes a record only while it is pending; create puts one back', async () => {
      await s.uploads.reserve(record('u1/a'), roomy);
      await s.uploads.reserve(record('u1/b'), roomy);
      await s.uploads.markIngested('u1/b', at(10), undefined);
      expect(await s.uploads.deletePending('u1/a')).to.equal(true);
      expect(await s.uploads.deletePending('u1/a')).to.equal(false);
      expect(await s.uploads.deletePending('u1/b')).to.equal(false);
      expect(await s.uploads.findByKey('u1/a')).to.equal(null);
      expect(await s.uploads.findByKey('u1/b')).to.not.equal(null);
      await s.uploads.create(record('u1/a'));
      expect(await s.uploads.findByKey('u1/a')).to.deep.equal(record('u1/a'));
    });

    it('lets only as many of many concurrent requests through as the limit allows', async () => {
      const limits = { maxPendingUploads: 5, storageQuotaBytes: 1_000_000 };
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => s.uploads.reserve(record(`u1/k${i}`), limits)));
      expect(outcomes.filter((o) => o.ok)).to.have.length(5);
    });
  });
}
