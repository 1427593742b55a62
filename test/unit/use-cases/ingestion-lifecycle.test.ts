import { expect } from 'chai';
import { IngestAlreadyActiveError, JobStoppedError, ReadCancelledError, UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { RunIngestion } from '../../../core/use-cases/run-ingestion.js';
import type { IndexedChunk } from '../../../core/ports/vector-index.js';
import type { IngestJobPatch } from '../../../core/ports/ingest-job-repo.js';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
import { InMemoryIngestJobRepo } from '../../fakes/in-memory-repos.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

const DOC = [
  'The Eiffel Tower was completed in 1889. It was designed by the engineering company of Gustave Eiffel.',
  'The tower is 330 metres tall. It was the tallest man-made structure in the world for 41 years.',
].join('\f');

/** An in-memory repo whose update throws while `failWhen` says so (a database that refuses a write). */
class FlakyIngestJobRepo extends InMemoryIngestJobRepo {
  failWhen: (patch: IngestJobPatch) => boolean = () => false;
  readonly patches: IngestJobPatch[] = [];

  override async update(id: string, patch: IngestJobPatch) {
    this.patches.push(patch);
    if (this.failWhen(patch)) throw new Error('SQLITE_BUSY: database is locked');
    return super.update(id, patch);
  }
}

/** Fails the first `times` writes matching `matches`. */
const firstTimes = (times: number, matches: (patch: IngestJobPatch) => boolean) => {
  let left = times;
  return (patch: IngestJobPatch) => matches(patch) && left-- > 0;
};

describe('Cancelling ingestion (deleting the session)', () => {
  it('stops the running extraction: the read is cancelled, nothing is indexed, the job is gone', async () => {
    const f = coreFixture();
    const { job, session } = await f.sessionWithUpload('u1', DOC);
    let readOutcome: unknown;
    const read = f.reader.read.bind(f.reader);
    f.reader.read = (request) => read(request).catch((error: unknown) => {
      readOutcome = error;
      throw error;
    });
    f.reader.beforeAnswer = () => f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    await f.drain();
    expect(readOutcome).to.be.instanceOf(ReadCancelledError);
    expect(await f.jobs.findById(job.id)).to.equal(null);
    expect(f.index.all()).to.deep.equal([]);
    expect(f.logger.lines.some((l) => l.message === 'ingest job cancelled' && l.fields?.jobId === job.id)).to.equal(true);
  });

  it('drops the chunks of a run cancelled while it was indexing, so none stays behind', async () => {
    let onAdd: () => Promise<void> = async () => {};
    class CancellingIndex extends InMemoryVectorIndex {
      override async add(chunks: IndexedChunk[]): Promise<void> {
        await super.add(chunks);
        await onAdd();
      }
    }
    const index = new CancellingIndex();
    const f = coreFixture({ indexes: [index] });
    const { job, session } = await f.sessionWithUpload('u1', DOC);
    // Cancelled right after the chunks were added, before the job is marked completed (only the cancel, not the
    // rest of the deletion: the run itself must clean up).
    onAdd = async () => f.queue.cancel(job.id);
    await f.drain();
    expect(index.all()).to.deep.equal([]);
    const left = await f.jobs.findById(job.id);
    expect(left?.status, 'not completed: the session deletion that cancelled it removes it').to.equal('processing');
    expect(left).to.not.have.property('attempts'); // a cancelled run is not counted as an attempt
    expect((await f.sessions.findById(session.id))?.id).to.equal(session.id);
  });

  it('never runs the queued jobs of a deleted session, and leaves other sessions’ jobs queued', async () => {
    const f = coreFixture();
    const mine = await f.sessionWithUpload('u1', DOC, 'a.pdf');
    const other = await f.sessionWithUpload('u1', `${DOC} other`, 'b.pdf');
    expect(f.queued).to.deep.equal([mine.job.id, other.job.id]);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: mine.session.id });
    expect(f.queued).to.deep.equal([other.job.id]);
    await f.drain();
    expect(f.reader.calls).to.equal(1);
    expect((await f.jobs.findById(other.job.id))?.status).to.equal('completed');
  });
});

describe('Idempotent ingest (one queued or processing job per key)', () => {
  it('refuses a key whose job is queued or processing with that job’s id, and takes it again once finished', async () => {
    const f = coreFixture();
    const { job, session, key } = await f.sessionWithUpload('u1', DOC);
    const again = { userId: 'u1', sessionId: session.id, key, filename: 'doc.pdf', tags: {} };
    const queuedConflict = await rejection(f.docChat.startIngestion.execute(again));
    expect(queuedConflict).to.be.instanceOf(IngestAlreadyActiveError).and.include({ jobId: job.id });
    expect((queuedConflict as Error).message).to.equal('An ingest job for this key is already queued or processing');

    // Processing: the same answer while the document is read.
    let duringRun: unknown;
    f.reader.beforeAnswer = async () => {
      duringRun = await rejection(f.docChat.startIngestion.execute(again));
    };
    await f.drain();
    expect(duringRun).to.be.instanceOf(IngestAlreadyActiveError).and.include({ jobId: job.id });
    expect(f.queued).to.deep.equal([]);
    expect(await f.jobs.listBySession(session.id)).to.have.length(1);

    // Completed: a new job, which reuses the chunks by content hash.
    f.reader.beforeAnswer = null;
    const second = await f.docChat.startIngestion.execute(again);
    await f.drain();
    expect(await f.jobs.findById(second.id)).to.include({ status: 'completed', reusedFrom: job.id });
    expect(f.reader.calls).to.equal(1);
  });

  it('takes a failed key again, and the same key of another user is not a conflict', async () => {
    const f = coreFixture();
    const { session, key } = await f.sessionWithUpload('u1', DOC);
    f.reader.failWith = new Error('boom');
    await f.drain();
    f.reader.failWith = null;
    const retry = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key, filename: 'doc.pdf', tags: {} });
    expect(retry.status).to.equal('queued');
    expect(await f.jobs.findActiveByKey('u2', key)).to.equal(null);
  });
});

describe('Jobs never stuck (bounded retries)', () => {
  it('retries a run whose final status update threw, and completes on the next attempt with the same chunks', async () => {
    const jobs = new FlakyIngestJobRepo();
    const f = coreFixture({ jobs });
    jobs.failWhen = firstTimes(1, (p) => p.status === 'completed');
    const { job } = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', attempts: 2, chunks: 2 });
    expect(await f.index.count({ jobId: job.id })).to.equal(2);
    expect(f.reader.calls).to.equal(2);
    expect(f.logger.lines.some((l) => l.level === 'warn' && l.message === 'ingest attempt failed; retrying')).to.equal(true);
  });

  it('fails a job after the attempts are used up, with a reason naming them, and leaves no chunks', async () => {
    const jobs = new FlakyIngestJobRepo();
    const f = coreFixture({ jobs });
    jobs.failWhen = (p) => p.status === 'completed';
    const { job } = await f.sessionWithUpload('u1', DOC);
    await f.drain();
    const failed = await f.jobs.findById(job.id);
    // Runs 1 and 2 each recorded a checkpoint (page 1, then page 2: each run records its first page at once), so
    // they do not count; runs 3-5 got no further, and the third of them fails the job.
    expect(failed).to.include({ status: 'failed', attempts: 5 });
    expect(failed?.error).to.equal('Ingestion failed 3 times because of an internal error; try again later, and report it if it persists');
    expect(failed).to.not.have.any.keys('stage', 'checkpoint');
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
    expect(f.reader.calls).to.equal(5);
    expect(f.reader.firstPages).to.deep.equal([1, 2, 3, 3, 3]);
  });

  it('does not retry a document’s own problem', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', '  \f  ');
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', attempts: 1, error: 'The document contains no readable text' });
    expect(f.reader.calls).to.equal(1);
  });

  it('writes `failed` again after a write of it threw', async () => {
    const jobs = new FlakyIngestJobRepo();
    const f = coreFixture({ jobs });
    jobs.failWhen = firstTimes(3, (p) => p.status === 'failed');
    const { job } = await f.sessionWithUpload('u1', DOC);
    f.reader.failWith = new UnprocessableDocumentError('The PDF is password-protected; upload a copy without a password');
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', error: 'The PDF is password-protected; upload a copy without a password' });
    expect(jobs.patches.filter((p) => p.status === 'failed')).to.have.length(4);
  });

  it('fails a job that was started as often as allowed without finishing (the service died each time)', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    await f.jobs.update(job.id, { status: 'processing', stage: 'extracting', attempts: 3 });
    await f.drain();
    const failed = await f.jobs.findById(job.id);
    expect(failed?.status).to.equal('failed');
    expect(failed?.error).to.match(/^Ingestion was started 3 times without finishing/);
    expect(f.reader.calls).to.equal(0);
  });

  it('goes on reading when a progress write made while extracting throws: logged, never an unhandled rejection', async () => {
    const jobs = new FlakyIngestJobRepo();
    const f = coreFixture({ jobs });
    // The writes the reader's progress causes (after the forced one at 0.05) are refused, as SQLite did with
    // SQLITE_BUSY while a long PDF was read: such a rejection, unhandled, ended the whole service.
    jobs.failWhen = (p) => p.stage === 'extracting' && (p.progress ?? 0) > 0.05;
    const { job } = await f.sessionWithUpload('u1', DOC);
    // Past the 400 ms throttle, so that the reader's last progress call writes.
    f.reader.beforeAnswer = () => new Promise((resolve) => setTimeout(resolve, 450));
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await f.drain();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled).to.deep.equal([]);
    // Which progress it is depends on the throttle (the latest state is written once its interval is over).
    expect(jobs.patches.some((p) => p.stage === 'extracting' && (p.progress ?? 0) > 0.05), 'the refused write was tried').to.equal(true);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', attempts: 1, chunks: 2 });
    expect(f.logger.lines.some((l) => l.level === 'warn' && l.message === 'could not record ingest progress' && l.fields?.jobId === job.id)).to.equal(true);
  });

  it('refreshes updatedAt while a long page is read (heartbeat), and a shutdown leaves the job to resume uncounted', async () => {
    const jobs = new FlakyIngestJobRepo();
    const f = coreFixture({ jobs });
    const { job } = await f.sessionWithUpload('u1', DOC);
    const heartbeats = () => jobs.patches.filter((p) => Object.keys(p).join() === 'updatedAt').length;
    // A RunIngestion on the fixture's ports with a short heartbeat (the fixture's has the default 15 s).
    const quick = new RunIngestion({
      jobs, blobs: f.blobs, uploads: f.uploads, reader: f.reader, indexes: f.indexes, clock: { now: () => new Date() }, logger: f.logger,
      retry: { heartbeatMs: 5, backoffMs: 1 },
    });
    const controller = new AbortController();
    f.reader.beforeAnswer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      controller.abort(new JobStoppedError('shutdown'));
    };
    await quick.execute(job.id, controller.signal);
    expect(heartbeats()).to.be.greaterThan(2);
    const left = await f.jobs.findById(job.id);
    expect(left).to.include({ status: 'processing' });
    expect(left).to.not.have.any.keys('attempts', 'readingPage');
    // What it indexed up to its checkpoint stays, for the next run to go on from.
    expect(left?.checkpoint).to.include({ pages: 1 });
    expect(f.index.all().map((chunk) => chunk.ordinal)).to.deep.equal(Array.from({ length: left!.checkpoint!.chunks }, (_, i) => i));
  });
});

describe('ResumeIngestion', () => {
  it('enqueues every unfinished job at start, and later only those older than the lease, queued or processing', async () => {
    const f = coreFixture();
    const a = await f.sessionWithUpload('u1', DOC, 'a.pdf');
    const b = await f.sessionWithUpload('u2', `${DOC} b`, 'b.pdf');
    const done = await f.sessionWithUpload('u1', `${DOC} c`, 'c.pdf');
    await f.jobs.update(done.job.id, { status: 'completed' });
    f.queued.length = 0;
    expect(await f.docChat.resumeIngestion.execute()).to.equal(2);
    expect(f.queued).to.deep.equal([a.job.id, b.job.id]);
    f.queued.length = 0;
    // a's run went silent long ago; b is fresh (its heartbeat moved updatedAt just now); d was queued long ago (its
    // send may have been lost); e was queued just now; the completed job is never sent again.
    const d = await f.sessionWithUpload('u3', `${DOC} d`, 'd.pdf');
    const e = await f.sessionWithUpload('u4', `${DOC} e`, 'e.pdf');
    f.queued.length = 0;
    await f.jobs.update(a.job.id, { status: 'processing', updatedAt: '2025-12-31T23:00:00.000Z' });
    await f.jobs.update(b.job.id, { status: 'processing', updatedAt: '2026-01-01T00:00:00.500Z' });
    await f.jobs.update(d.job.id, { updatedAt: '2025-12-31T23:00:00.000Z' });
    await f.jobs.update(e.job.id, { updatedAt: '2026-01-01T00:00:00.500Z' });
    await f.jobs.update(done.job.id, { updatedAt: '2025-12-31T23:00:00.000Z' });
    expect(await f.docChat.resumeIngestion.execute({ staleAfterMs: 60_000 })).to.equal(2);
    expect([...f.queued].sort()).to.deep.equal([a.job.id, d.job.id].sort());
  });
});

describe('Pages skipped by the OCR limit', () => {
  const SKIPPED = FakeDocumentReader.OCR_SKIPPED_PAGE;

  it('completes with the readable pages and counts the skipped ones', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', [DOC, SKIPPED, SKIPPED, '   '].join('\f'));
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', pages: 5, chunks: 2, ocrSkippedPages: 2 });
    expect(f.index.all().map((c) => c.page)).to.deep.equal([1, 2]);
  });

  it('fails a document of nothing but skipped and blank pages with a reason naming the OCR page limit', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', [SKIPPED, ' ', SKIPPED, SKIPPED].join('\f'));
    await f.drain();
    const failed = await f.jobs.findById(job.id);
    expect(failed?.status).to.equal('failed');
    expect(failed?.error).to.equal(
      'The document contains no readable text: 3 of its 4 pages needed OCR and were skipped because the document exceeds the limit of pages read by OCR; split it into smaller files',
    );
  });
});
