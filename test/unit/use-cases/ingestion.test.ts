import { expect } from 'chai';
import { ForbiddenError, NotFoundError, UnprocessableDocumentError, UpstreamUnavailableError, ValidationError } from '../../../core/domain/errors.js';
import { SIZE_ERROR, TYPE_ERROR } from '../../../core/use-cases/create-upload-url.js';
import type { DocumentReader } from '../../../core/ports/document-reader.js';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

const DOC = [
  'The Eiffel Tower was completed in 1889. It was designed by the engineering company of Gustave Eiffel.',
  'The tower is 330 metres tall. It was the tallest man-made structure in the world for 41 years.',
].join('\f');

describe('CreateUploadUrl', () => {
  it('checks size before type, then type, with the spec’s texts', async () => {
    const { docChat } = coreFixture();
    const tooBigAndWrongType = await rejection(docChat.createUploadUrl.execute({ userId: 'u', filename: 'a.exe', contentType: 'application/x-msdownload', contentSize: 52_428_801 }));
    expect((tooBigAndWrongType as Error).message).to.equal(SIZE_ERROR);
    const wrongType = await rejection(docChat.createUploadUrl.execute({ userId: 'u', filename: 'a.png', contentType: 'image/png', contentSize: 10 }));
    expect((wrongType as Error).message).to.equal('Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg');
    expect(TYPE_ERROR.startsWith('Invalid File Type | Valid Type Are: ')).to.equal(true);
    expect(await rejection(docChat.createUploadUrl.execute({ userId: 'u', filename: 'a.pdf', contentType: 'application/pdf', contentSize: 0 }))).to.be.instanceOf(ValidationError);
  });

  it('accepts exactly 50 MB and derives a key under the caller’s prefix', async () => {
    const { docChat } = coreFixture();
    const upload = await docChat.createUploadUrl.execute({ userId: 'u1', filename: '../../secret/../Été report.pdf', contentType: 'application/pdf', contentSize: 52_428_800 });
    expect(upload.key).to.match(/^u1\/id-\d{4}-secret-Été-report\.pdf$/);
    expect(upload.signedUrl).to.be.a('string').and.not.equal('');
  });
});

describe('StartIngestion', () => {
  it('queues a job for an uploaded file of the caller', async () => {
    const f = coreFixture();
    const { job, session } = await f.sessionWithUpload('u1', DOC, 'tower.pdf', { institution: 'paris' });
    expect(job).to.include({ status: 'queued', sessionId: session.id, filename: 'tower.pdf', contentType: 'application/pdf' });
    expect(f.queued).to.deep.equal([job.id]);
  });

  it('refuses a foreign session (404), another user’s or an unknown key (403) and a file never uploaded (400)', async () => {
    const f = coreFixture();
    const { session, key } = await f.sessionWithUpload('u1', DOC);
    f.queued.length = 0;
    const other = await f.docChat.createSession.execute({ userId: 'u2', label: 'x' });
    expect(await rejection(f.docChat.startIngestion.execute({ userId: 'u2', sessionId: session.id, key, filename: 'a.pdf', tags: {} }))).to.be.instanceOf(NotFoundError);
    expect(await rejection(f.docChat.startIngestion.execute({ userId: 'u2', sessionId: other.id, key, filename: 'a.pdf', tags: {} }))).to.be.instanceOf(ForbiddenError);
    f.blobs.put('u1/never-issued.pdf', DOC, 'application/pdf');
    expect(await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: 'u1/never-issued.pdf', filename: 'a.pdf', tags: {} }))).to.be.instanceOf(ForbiddenError);
    const notUploaded = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'a.pdf', contentType: 'application/pdf', contentSize: 10 });
    expect(await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: notUploaded.key, filename: 'a.pdf', tags: {} }))).to.be.instanceOf(ValidationError);
    expect(await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key, filename: 'a.pdf', tags: { nested: { a: 1 } as never, ['x'.repeat(65)]: 'v' } }))).to.be.instanceOf(ValidationError);
    expect(f.queued).to.deep.equal([]);
  });
});

describe('RunIngestion', () => {
  it('extracts, chunks with page numbers and tags, indexes, and completes the job', async () => {
    const f = coreFixture();
    const { job, session } = await f.sessionWithUpload('u1', DOC, 'tower.pdf', { institution: 'paris' });
    await f.drain();
    const done = await f.docChat.getIngestJob.execute({ userId: 'u1', jobId: job.id });
    expect(done).to.include({ status: 'completed', pages: 2, chunks: 2, progress: 1 });
    expect(done.sha256).to.match(/^[0-9a-f]{64}$/);
    expect(done).to.not.have.property('stage');
    const chunks = f.index.all();
    expect(chunks.map((c) => [c.page, c.filename, c.tags.institution, c.sessionId, c.jobId])).to.deep.equal([
      [1, 'tower.pdf', 'paris', session.id, job.id],
      [2, 'tower.pdf', 'paris', session.id, job.id],
    ]);
  });

  it('is idempotent: running a job again (after a crash mid-way) leaves the same chunks, no duplicates', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    // A crash after indexing but before completion leaves the job "processing" with its chunks present.
    await f.drain();
    await f.jobs.update(job.id, { status: 'processing', stage: 'indexing' });
    await f.docChat.runIngestion.execute(job.id);
    expect(await f.index.count({ jobId: job.id })).to.equal(2);
    expect((await f.jobs.findById(job.id))?.status).to.equal('completed');
  });

  it('fails with the reader’s reason and leaves no chunks', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    f.reader.failWith = new UnprocessableDocumentError('The PDF is password-protected; upload a copy without a password');
    await f.drain();
    const failed = await f.jobs.findById(job.id);
    expect(failed).to.include({ status: 'failed', error: 'The PDF is password-protected; upload a copy without a password' });
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
  });

  it('names an unavailable dependency as such, and hides internal errors behind a generic reason', async () => {
    const f = coreFixture();
    const a = await f.sessionWithUpload('u1', DOC);
    f.reader.failWith = new UpstreamUnavailableError('embedding model', 'Ollama did not answer');
    await f.drain();
    expect((await f.jobs.findById(a.job.id))?.error).to.match(/unavailable.*Ollama did not answer/);
    const b = await f.sessionWithUpload('u1', `${DOC} v2`);
    f.reader.failWith = new Error('SQLITE_CORRUPT at 0xdeadbeef');
    await f.drain();
    const error = (await f.jobs.findById(b.job.id))?.error ?? '';
    expect(error).to.match(/internal error/);
    expect(error).to.not.include('SQLITE');
    expect(f.logger.lines.some((l) => l.level === 'error' && String(l.fields?.error).includes('SQLITE_CORRUPT'))).to.equal(true);
  });

  it('fails a document without text, and one that vanished from storage, with reasons a user can act on', async () => {
    const f = coreFixture();
    const empty = await f.sessionWithUpload('u1', '  \f  ');
    await f.drain();
    expect((await f.jobs.findById(empty.job.id))?.error).to.equal('The document contains no readable text');
    const gone = await f.sessionWithUpload('u1', DOC);
    await f.blobs.remove(gone.key);
    await f.drain();
    expect((await f.jobs.findById(gone.job.id))?.error).to.match(/no longer in storage/);
  });

  it('reuses the chunks of identical content already ingested into the session', async () => {
    const f = coreFixture();
    const first = await f.sessionWithUpload('u1', DOC, 'a.pdf');
    await f.drain();
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'copy.pdf', contentType: 'application/pdf', contentSize: DOC.length });
    f.blobs.put(upload.key, DOC, 'application/pdf');
    const second = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: first.session.id, key: upload.key, filename: 'copy.pdf', tags: {} });
    await f.drain();
    expect(await f.jobs.findById(second.id)).to.include({ status: 'completed', reusedFrom: first.job.id, chunks: 2 });
    expect(f.reader.calls).to.equal(1);
    expect(await f.index.count({ sessionId: first.session.id })).to.equal(2);
  });

  it('indexes the pages a reader hands over while it still reads the rest, every chunk once', async () => {
    const f = coreFixture();
    const pages = Array.from({ length: 2_000 }, (_, i) => `Page ${i + 1} of the ledger records entry number ${i + 1}.`);
    const { job } = await f.sessionWithUpload('u1', pages.join('\f'));
    let whileReading = 0;
    f.reader.beforeAnswer = async () => {
      // The fake hands over the first 1,000 pages, then waits here as if reading the second half.
      for (let waited = 0; whileReading === 0 && waited < 2_000; waited += 5) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        whileReading = await f.index.count({ jobId: job.id });
      }
    };
    await f.drain();
    expect(whileReading, 'chunks indexed before the read finished').to.be.within(1, 1_000);
    const done = await f.jobs.findById(job.id);
    expect(done).to.include({ status: 'completed', pages: 2_000 });
    const ordinals = f.index.all().filter((c) => c.jobId === job.id).map((c) => c.ordinal).sort((a, b) => a - b);
    expect(ordinals).to.deep.equal(Array.from({ length: done!.chunks! }, (_, i) => i));
  });

  it('tells the queue it is finishing once: when the reader starts the last pages, else when the read ends', async () => {
    // A reader that says when it started the last pages: finishing follows at once, while pages are still read.
    const fake = new FakeDocumentReader();
    const events: string[] = [];
    const saying: DocumentReader = {
      read: async (request) => {
        events.push('read');
        request.onLastPagesStarted?.();
        const pages = await fake.read(request);
        events.push('read ended');
        return pages;
      },
    };
    const f = coreFixture({ reader: saying });
    const { job } = await f.sessionWithUpload('u1', DOC);
    const status = async () => (await f.jobs.findById(job.id))?.status;
    await f.docChat.runIngestion.execute(job.id, undefined, () => events.push(`finishing (${String(events.length)})`));
    expect(events).to.deep.equal(['read', 'finishing (1)', 'read ended']);
    expect(await status()).to.equal('completed');

    // A reader that never says so: finishing once its read ended, before the job completes.
    const g = coreFixture();
    const other = await g.sessionWithUpload('u1', DOC);
    const seen: (string | undefined)[] = [];
    await g.docChat.runIngestion.execute(other.job.id, undefined, () => seen.push(`${g.jobs.rows.get(other.job.id)?.status} ${g.reader.calls}`));
    expect(seen).to.deep.equal(['processing 1']);
    expect(g.jobs.rows.get(other.job.id)?.status).to.equal('completed');
  });

  it('leaves none of the chunks it indexed while reading when the session is deleted before the end', async () => {
    const f = coreFixture();
    const pages = Array.from({ length: 2_000 }, (_, i) => `Page ${i + 1} of the ledger records entry number ${i + 1}.`);
    const { job, session } = await f.sessionWithUpload('u1', pages.join('\f'));
    let indexedBeforeDeletion = 0;
    f.reader.beforeAnswer = async () => {
      for (let waited = 0; indexedBeforeDeletion === 0 && waited < 2_000; waited += 5) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        indexedBeforeDeletion = await f.index.count({ jobId: job.id });
      }
      await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    };
    await f.drain();
    expect(indexedBeforeDeletion).to.be.above(0);
    expect(await f.jobs.findById(job.id)).to.equal(null);
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
  });

  it('drops its chunks when the session is deleted while it runs', async () => {
    const f = coreFixture();
    const { job, session } = await f.sessionWithUpload('u1', DOC);
    f.reader.beforeAnswer = () => f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.equal(null);
    expect(await f.index.count({ sessionId: session.id })).to.equal(0);
  });
});

describe('DeleteSession', () => {
  it('removes messages, jobs, chunks and stored files of the session only', async () => {
    const f = coreFixture();
    const mine = await f.sessionWithUpload('u1', DOC);
    const other = await f.sessionWithUpload('u1', `${DOC} other`);
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: mine.session.id, message: 'How tall is the tower?' });
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id });
    expect(await f.sessions.findById(mine.session.id)).to.equal(null);
    expect(f.chats.rows.filter((m) => m.sessionId === mine.session.id)).to.deep.equal([]);
    expect(await f.jobs.listBySession(mine.session.id)).to.deep.equal([]);
    expect(await f.index.count({ sessionId: mine.session.id })).to.equal(0);
    expect(await f.blobs.stat(mine.key)).to.equal(null);
    expect(await f.blobs.stat(other.key)).to.not.equal(null);
    expect(await f.index.count({ sessionId: other.session.id })).to.equal(2);
  });

  it('fails keeping the session, its messages and jobs while the file store is unavailable; trying again completes it', async () => {
    const f = coreFixture();
    const mine = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: mine.session.id, message: 'How tall is the tower?' });
    f.blobs.setUnavailable(true);
    let error: unknown;
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(await f.sessions.findById(mine.session.id)).to.not.equal(null);
    expect(f.chats.rows.filter((m) => m.sessionId === mine.session.id)).to.have.length(2);
    expect(await f.jobs.listBySession(mine.session.id)).to.have.length(1);
    f.blobs.setUnavailable(false);
    expect(await f.blobs.stat(mine.key)).to.not.equal(null);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id });
    expect(await f.sessions.findById(mine.session.id)).to.equal(null);
    expect(await f.blobs.stat(mine.key)).to.equal(null);
    expect(await f.index.count({ sessionId: mine.session.id })).to.equal(0);
  });
});
