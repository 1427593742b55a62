import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ConflictError, ForbiddenError, LimitReachedError, QuotaExceededError, UpstreamUnavailableError, ValidationError } from '../../../core/domain/errors.js';
import { SIZE_ERROR } from '../../../core/use-cases/create-upload-url.js';
import { SWEEP_GRACE_MS } from '../../../core/use-cases/sweep-uploads.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);
const DOC = 'The Eiffel Tower was completed in 1889.\fThe tower is 330 metres tall.';
const pdf = (userId: string, contentSize = DOC.length) => ({ userId, filename: 'a.pdf', contentType: 'application/pdf', contentSize });

describe('upload keys are owned by whom they were issued to (issue 11, point 2)', () => {
  it('a user whose id is another user’s hashed prefix cannot ingest that user’s key', async () => {
    const f = coreFixture();
    const victim = await f.sessionWithUpload('victim@example.com', DOC);
    const forged = `u-${createHash('sha256').update('victim@example.com').digest('hex').slice(0, 32)}`;
    expect(victim.key.startsWith(`${forged}/`)).to.equal(true);
    const session = await f.docChat.createSession.execute({ userId: forged, label: 'x' });
    const error = await rejection(f.docChat.startIngestion.execute({ userId: forged, sessionId: session.id, key: victim.key, filename: 'a.pdf', tags: {} }));
    expect(error).to.be.instanceOf(ForbiddenError);
    expect((error as Error).message).to.match(/^key was not issued to you/);
    expect((await f.jobs.listBySession(session.id))).to.deep.equal([]);
  });

  it('records who a key was issued to, what for and until when', async () => {
    const f = coreFixture();
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'scan.jpg', contentType: 'image/jpeg', contentSize: 42 });
    expect(await f.uploads.findByKey(upload.key)).to.deep.equal({
      key: upload.key, userId: 'u1', contentType: 'image/jpeg', declaredSize: 42, issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: upload.expiresAt,
    });
  });

  it('refuses a file whose size is not the declared one (S3 does not enforce it), after the spec’s size check', async () => {
    const f = coreFixture();
    const session = await f.docChat.createSession.execute({ userId: 'u1', label: 'x' });
    const upload = await f.docChat.createUploadUrl.execute(pdf('u1', 10));
    f.blobs.put(upload.key, DOC, 'application/pdf');
    const error = await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: 'a.pdf', tags: {} }));
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as Error).message).to.equal(`The uploaded file has ${DOC.length} bytes, not the 10 its upload URL was issued for: request a new upload URL and upload it again`);
    f.blobs.put(upload.key, new Uint8Array(52_428_801), 'application/pdf');
    expect(((await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: 'a.pdf', tags: {} }))) as Error).message).to.equal(SIZE_ERROR);
  });

  it('deleting a session keeps a file another session still references, and the last one takes it', async () => {
    const f = coreFixture();
    const first = await f.sessionWithUpload('u1', DOC);
    await f.drain(); // one active job per key: the second session ingests it once the first has finished
    const second = await f.docChat.createSession.execute({ userId: 'u1', label: 'again' });
    await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: second.id, key: first.key, filename: 'a.pdf', tags: {} });
    await f.drain();
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: first.session.id });
    expect(await f.blobs.stat(first.key)).to.not.equal(null);
    expect(await f.uploads.findByKey(first.key)).to.not.equal(null);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: second.id });
    expect(await f.blobs.stat(first.key)).to.equal(null);
    // Pending again until the URL has expired and the sweep has run (an S3 URL could still put the file back).
    expect(await f.uploads.findByKey(first.key)).to.not.have.property('ingestedAt');
  });

  it('deleting a session never removes a file issued to another user, even if a job of the session references it', async () => {
    const f = coreFixture();
    const victim = await f.sessionWithUpload('victim', DOC);
    await f.drain();
    await f.docChat.deleteSession.execute({ userId: 'victim', sessionId: victim.session.id });
    // The victim's session is gone (the record stays while the URL works) and the victim uploads again; a job
    // (written before ownership was recorded) in the intruder's session still points at the key.
    f.blobs.put(victim.key, DOC, 'application/pdf');
    expect(await f.uploads.findByKey(victim.key)).to.include({ userId: 'victim' });
    const intruder = await f.docChat.createSession.execute({ userId: 'intruder', label: 'x' });
    await f.jobs.create({ ...victim.job, id: 'legacy', userId: 'intruder', sessionId: intruder.id });
    await f.docChat.deleteSession.execute({ userId: 'intruder', sessionId: intruder.id });
    expect(await f.blobs.stat(victim.key)).to.not.equal(null);
    expect(await f.uploads.findByKey(victim.key)).to.not.equal(null);
  });
});

describe('a replaced upload is not ingested (issue 11, point 1)', () => {
  it('an ingest of a key whose object changed after its first ingest is refused with 409 and changes nothing', async () => {
    const f = coreFixture({ singleUseUploads: false });
    const { session, key, job } = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    const etag = (await f.uploads.findByKey(key))?.etag;
    expect(etag).to.be.a('string');
    f.blobs.put(key, DOC.replace('1889', '1999'), 'application/pdf'); // a replayed S3 URL, same size
    const error = await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key, filename: 'a.pdf', tags: {} }));
    expect(error).to.be.instanceOf(ConflictError);
    expect((error as Error).message).to.match(/changed after it was first ingested/);
    expect((await f.jobs.listBySession(session.id)).map((j) => j.id)).to.deep.equal([job.id]);
    expect((await f.uploads.findByKey(key))?.etag).to.equal(etag);
    // The same content again is fine.
    f.blobs.put(key, DOC, 'application/pdf');
    await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key, filename: 'a.pdf', tags: {} });
  });

  it('a job whose object is replaced while it waits fails without indexing the new content', async () => {
    const f = coreFixture({ singleUseUploads: false });
    const { job, key } = await f.sessionWithUpload('u1', DOC);
    f.blobs.put(key, DOC.replace('1889', '1999'), 'application/pdf');
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', error: 'The file under this key changed after it was first ingested: request a new upload URL and upload it again' });
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
  });

  it('a job whose object is replaced after it was hashed, before the reader read it, fails and leaves no chunk', async () => {
    const f = coreFixture({ singleUseUploads: false });
    // Long enough that chunks are written while the reader reads (in batches of 512), before the version is checked.
    const long = Array.from({ length: 600 }, (_, i) => `Page ${i + 1}. ${DOC}`).join('\f');
    const { job, key } = await f.sessionWithUpload('u1', long);
    // The first stream is the hash's; the reader's comes second, and finds the file replaced.
    const stream = f.blobs.stream.bind(f.blobs);
    let streams = 0;
    f.blobs.stream = (streamKey: string) => {
      if (++streams === 2) f.blobs.put(key, long.replace('1889', '1999'), 'application/pdf');
      return stream(streamKey);
    };
    await f.drain();
    expect(streams).to.equal(2);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', error: 'The file under this key changed after it was first ingested: request a new upload URL and upload it again' });
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
  });

  it('the store refuses a second PUT to a signed URL when it can (the local store and this fake)', async () => {
    const f = coreFixture();
    const upload = await f.docChat.createUploadUrl.execute(pdf('u1'));
    expect(f.blobs.putViaUrl(upload.signedUrl, Buffer.from(DOC), 'application/pdf')).to.equal(200);
    expect(f.blobs.putViaUrl(upload.signedUrl, Buffer.from(DOC.replace('1889', '1999')), 'application/pdf')).to.equal(409);
  });
});

describe('upload limits and the sweep (issue 11, point 6)', () => {
  it('refuses an upload URL past the storage quota (413) or the pending limit (429), per user, after the spec’s 400s', async () => {
    const f = coreFixture({ uploadLimits: { storageQuotaBytes: 250, maxPendingUploads: 2 } });
    await f.docChat.createUploadUrl.execute(pdf('u1', 100));
    await f.docChat.createUploadUrl.execute(pdf('u1', 100));
    const quota = await rejection(f.docChat.createUploadUrl.execute(pdf('u1', 51)));
    expect(quota).to.be.instanceOf(QuotaExceededError);
    expect((quota as Error).message).to.equal('Storage quota exceeded: your files take 200 bytes and this one would pass the limit of 250 bytes; delete sessions you no longer need');
    const pending = await rejection(f.docChat.createUploadUrl.execute(pdf('u1', 50)));
    expect(pending).to.be.instanceOf(LimitReachedError);
    expect((pending as Error).message).to.equal('Too many pending uploads: 2 upload URLs are waiting to be ingested (at most 2); ingest those files or wait for their URLs to expire');
    expect(await rejection(f.docChat.createUploadUrl.execute(pdf('u1', 52_428_801)))).to.be.instanceOf(ValidationError);
    await f.docChat.createUploadUrl.execute(pdf('u2', 250));
    expect(f.uploads.rows.size).to.equal(3);
  });

  it('frees a pending slot when an upload is ingested or its URL expires', async () => {
    const f = coreFixture({ uploadLimits: { storageQuotaBytes: 1_000_000, maxPendingUploads: 1 } });
    await f.sessionWithUpload('u1', DOC);
    await f.docChat.createUploadUrl.execute(pdf('u1'));
    expect(await rejection(f.docChat.createUploadUrl.execute(pdf('u1')))).to.be.instanceOf(LimitReachedError);
    f.clock.advance(3600_000);
    await f.docChat.createUploadUrl.execute(pdf('u1'));
  });

  it('sweeps uploads never ingested once their URL expired an hour ago: file and record; ingested and fresh ones stay', async () => {
    const f = coreFixture();
    const ingested = await f.sessionWithUpload('u1', DOC);
    const abandoned = await f.docChat.createUploadUrl.execute(pdf('u1'));
    f.blobs.put(abandoned.key, DOC, 'application/pdf');
    const neverSent = await f.docChat.createUploadUrl.execute(pdf('u2'));
    f.clock.advance(3600_000 + SWEEP_GRACE_MS - 1000);
    const fresh = await f.docChat.createUploadUrl.execute(pdf('u1'));
    f.blobs.put(fresh.key, DOC, 'application/pdf');
    expect(await f.docChat.sweepUploads.execute()).to.equal(0);
    f.clock.advance(2000);
    expect(await f.docChat.sweepUploads.execute()).to.equal(2);
    expect(f.blobs.keys()).to.deep.equal([ingested.key, fresh.key].sort());
    expect([...f.uploads.rows.keys()].sort()).to.deep.equal([ingested.key, fresh.key].sort());
    expect(neverSent.key).to.not.be.oneOf([...f.uploads.rows.keys()]);
    // A swept key cannot be ingested any more.
    const error = await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: ingested.session.id, key: abandoned.key, filename: 'a.pdf', tags: {} }));
    expect(error).to.be.instanceOf(ForbiddenError);
  });

  it('sweeps a replayed S3 upload of a session deleted while its URL still worked', async () => {
    const f = coreFixture({ singleUseUploads: false });
    const upload = await f.docChat.createUploadUrl.execute(pdf('u1'));
    expect(f.blobs.putViaUrl(upload.signedUrl, Buffer.from(DOC), 'application/pdf')).to.equal(200);
    const session = await f.docChat.createSession.execute({ userId: 'u1', label: 'x' });
    await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: 'a.pdf', tags: {} });
    await f.drain();
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    expect(f.blobs.keys()).to.deep.equal([]);
    expect(f.blobs.putViaUrl(upload.signedUrl, Buffer.from(DOC), 'application/pdf')).to.equal(200);
    f.clock.advance(3600_000 + SWEEP_GRACE_MS + 1000);
    expect(await f.docChat.sweepUploads.execute()).to.equal(1);
    expect(f.blobs.keys()).to.deep.equal([]);
    expect(f.uploads.rows.size).to.equal(0);
  });

  it('a session deleted long after its URL expired takes its upload records with it', async () => {
    const f = coreFixture();
    const mine = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    f.clock.advance(3600_000 + SWEEP_GRACE_MS + 1000);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id });
    expect(f.uploads.rows.size).to.equal(0);
  });

  it('keeps the record of a file it could not remove, so the next sweep tries again', async () => {
    const f = coreFixture();
    const abandoned = await f.docChat.createUploadUrl.execute(pdf('u1'));
    f.blobs.put(abandoned.key, DOC, 'application/pdf');
    f.clock.advance(3600_000 + SWEEP_GRACE_MS + 1000);
    f.blobs.setUnavailable(true);
    expect(await rejection(f.docChat.sweepUploads.execute())).to.be.instanceOf(UpstreamUnavailableError);
    expect(await f.uploads.findByKey(abandoned.key)).to.not.equal(null);
    f.blobs.setUnavailable(false);
    expect(await f.docChat.sweepUploads.execute()).to.equal(1);
    expect(f.blobs.keys()).to.deep.equal([]);
  });
});

describe('session deletion is all or nothing (issue 11, point 9)', () => {
  it('a failure while deleting the records leaves the session whole; trying again completes it', async () => {
    const f = coreFixture();
    const mine = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: mine.session.id, message: 'How tall is the tower?' });
    f.eraser.failWith = new Error('database is locked');
    expect(await rejection(f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id }))).to.equal(f.eraser.failWith);
    f.eraser.failWith = null;
    expect(await f.sessions.findById(mine.session.id)).to.not.equal(null);
    expect(f.chats.rows.filter((m) => m.sessionId === mine.session.id)).to.have.length(2);
    expect(await f.jobs.listBySession(mine.session.id)).to.have.length(1);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id });
    expect(await f.sessions.findById(mine.session.id)).to.equal(null);
    expect(f.chats.rows.filter((m) => m.sessionId === mine.session.id)).to.deep.equal([]);
    expect(await f.jobs.listBySession(mine.session.id)).to.deep.equal([]);
    expect(await f.uploads.findByKey(mine.key)).to.not.have.property('ingestedAt');
    expect(await f.blobs.stat(mine.key)).to.equal(null);
  });
});
