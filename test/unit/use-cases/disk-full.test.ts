import { expect } from 'chai';
import { DomainError, OUT_OF_DISK_SPACE } from '../../../core/domain/errors.js';
import type { IngestJob } from '../../../core/domain/model.js';
import type { IngestJobPatch } from '../../../core/ports/ingest-job-repo.js';
import type { AskQuestionEvent } from '../../../core/use-cases/ask-question.js';
import { OUT_OF_DISK_SPACE_REASON } from '../../../core/use-cases/ingest-failure-reasons.js';
import { diskFullError, FakeStorageSpace } from '../../fakes/fake-storage-space.js';
import { InMemoryIngestJobRepo } from '../../fakes/in-memory-repos.js';
import { coreFixture } from '../../support/core-fixture.js';

const TEXT = 'The Eiffel Tower is 330 metres tall. It was built for the 1889 World Fair.';
const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/** A job repo whose writes of `failed` find the disk full until some held space was released. */
class FullDiskJobRepo extends InMemoryIngestJobRepo {
  constructor(private readonly space: FakeStorageSpace) {
    super();
  }

  override async update(id: string, patch: IngestJobPatch): Promise<IngestJob | null> {
    if (patch.status === 'failed' && this.space.released === 0) throw diskFullError();
    return super.update(id, patch);
  }
}

async function collect(events: AsyncGenerator<AskQuestionEvent, void, undefined>): Promise<AskQuestionEvent[]> {
  const seen: AskQuestionEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('a full disk (issue 48, point 3)', () => {
  it('refuses upload URLs and ingests below the reserve, after the request’s own checks, writing nothing', async () => {
    const space = new FakeStorageSpace();
    const f = coreFixture({ space });
    const { session, key } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    space.full = true;
    const tooBig = await rejection(f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'a.pdf', contentType: 'application/pdf', contentSize: 60_000_000 }));
    expect(tooBig).to.have.property('code', 'VALIDATION');
    const refused = await rejection(f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'a.pdf', contentType: 'application/pdf', contentSize: 10 }));
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'INSUFFICIENT_STORAGE', message: OUT_OF_DISK_SPACE });
    expect(f.uploads.rows.size).to.equal(1);
    const jobs = (await f.jobs.listBySession(session.id)).length;
    const again = await rejection(f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key, filename: 'again.pdf', tags: {} }));
    expect(again).to.include({ code: 'INSUFFICIENT_STORAGE' });
    expect(await f.jobs.listBySession(session.id)).to.have.length(jobs);
    expect(f.queued).to.deep.equal([]);
    // A foreign session is still "not found", whatever the disk.
    const foreign = await rejection(f.docChat.startIngestion.execute({ userId: 'u2', sessionId: session.id, key, filename: 'x.pdf', tags: {} }));
    expect(foreign).to.include({ code: 'NOT_FOUND' });
  });

  it('fails a job that runs out of disk space at once (no retry), saying so, and leaves no chunks', async () => {
    const space = new FakeStorageSpace();
    const f = coreFixture({ space });
    const { job } = await f.sessionWithUpload('u1', TEXT);
    f.reader.failWith = diskFullError();
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', attempts: 1, error: OUT_OF_DISK_SPACE_REASON });
    expect(OUT_OF_DISK_SPACE_REASON).to.match(/out of disk space/);
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
    expect(f.logger.lines.some((l) => l.level === 'error' && l.message === 'ingest job failed: out of disk space')).to.equal(true);
  });

  it('records a job’s failure with held space released when the record itself finds the disk full', async () => {
    const space = new FakeStorageSpace();
    space.steps = 8;
    const f = coreFixture({ space, jobs: new FullDiskJobRepo(space) });
    const { job } = await f.sessionWithUpload('u1', TEXT);
    f.reader.failWith = diskFullError();
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed', error: OUT_OF_DISK_SPACE_REASON });
    expect(space.released).to.equal(1);
  });

  it('answers when the question and answer cannot be stored, saying they were not saved, as JSON and as a stream', async () => {
    const space = new FakeStorageSpace();
    const f = coreFixture({ space });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    f.chats.appendExchange = async () => {
      throw diskFullError();
    };
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' });
    expect(result.saved).to.equal(false);
    expect(result.answer).to.match(/330 metres/);
    expect(result.answer.endsWith('(This answer was not saved in the chat history: the server is out of disk space.)')).to.equal(true);
    expect(result.sources).to.not.be.empty;

    const seen = await collect(f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' }, new AbortController().signal));
    expect(seen.slice(-3).map((e) => e.type)).to.deep.equal(['delta', 'sources', 'done']);
    expect(seen.at(-3)).to.deep.equal({ type: 'delta', text: '\n\n(This answer was not saved in the chat history: the server is out of disk space.)' });
    expect(seen.at(-1)).to.deep.equal({ type: 'done', saved: false });
    expect(f.chats.rows).to.deep.equal([]);
    expect(f.logger.lines.filter((l) => l.level === 'error' && /could not store a question/.test(l.message))).to.have.length(2);

    // Another failure to store: the answer still comes, saying only that it could not be saved.
    f.chats.appendExchange = async () => {
      throw new Error('SQLITE_BUSY: database is locked');
    };
    const busy = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' });
    expect(busy.answer.endsWith('(This answer could not be saved in the chat history.)')).to.equal(true);
  });

  it('stores the exchange as before when it can: no note, `saved`, the ids in `done`', async () => {
    const f = coreFixture({ space: new FakeStorageSpace() });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' });
    expect(result.saved).to.equal(true);
    expect(result.answer).to.not.match(/saved/);
    expect(f.chats.rows).to.have.length(2);
  });

  it('deletes a session whose deletion the full disk refused again with its files removed first, holding on to held space', async () => {
    const space = new FakeStorageSpace();
    space.steps = 8;
    const f = coreFixture({ space });
    const { session, key } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    // The database can write the deletion of the chunks only once the file has made room.
    const deleteBySession = f.index.deleteBySession.bind(f.index);
    f.index.deleteBySession = async (sessionId) => {
      if ((await f.blobs.stat(key)) !== null) throw diskFullError();
      return deleteBySession(sessionId);
    };
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    expect(await f.sessions.findById(session.id)).to.equal(null);
    expect(await f.index.count({ sessionId: session.id })).to.equal(0);
    expect(space.released).to.equal(0);
  });

  it('releases held space step by step while the database stays full, and deletes', async () => {
    const space = new FakeStorageSpace();
    space.steps = 8;
    const f = coreFixture({ space });
    const { session, key } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const erase = f.eraser.erase.bind(f.eraser);
    f.eraser.erase = async (sessionId, uploads) => {
      if (space.released < 3) throw diskFullError();
      return erase(sessionId, uploads);
    };
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    expect(space.released).to.equal(3);
    expect(space.reclaimed, 'asked once the deletion succeeded').to.equal(1);
    expect(await f.sessions.findById(session.id)).to.equal(null);
    expect(await f.blobs.stat(key)).to.equal(null);
  });

  it('keeps the files while the disk has room: an index that fails leaves the session whole', async () => {
    const f = coreFixture({ space: new FakeStorageSpace() });
    const { session, key } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    f.index.deleteBySession = async () => {
      throw new Error('the index is down');
    };
    await rejection(f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id }));
    expect(await f.blobs.stat(key)).to.not.equal(null);
    expect(await f.sessions.findById(session.id)).to.not.equal(null);
  });

  it('gives up when nothing more is held: the session stays listed, to be deleted again once there is space', async () => {
    const space = new FakeStorageSpace();
    space.steps = 2;
    const f = coreFixture({ space });
    const { session, job } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    f.eraser.eraseDocuments = async () => {
      throw diskFullError();
    };
    const error = await rejection(f.docChat.deleteDocument.execute({ userId: 'u1', sessionId: session.id, ingestId: job.id }));
    expect(error).to.have.property('code', 'ENOSPC');
    expect(space.released).to.equal(2);
    expect(await f.jobs.findById(job.id)).to.not.equal(null);
    // Another failure is not the disk: no held space is spent on it.
    const other = new FakeStorageSpace();
    other.steps = 2;
    const g = coreFixture({ space: other });
    const second = await g.sessionWithUpload('u1', TEXT);
    await g.drain();
    g.eraser.failWith = new Error('database is locked');
    await rejection(g.docChat.deleteSession.execute({ userId: 'u1', sessionId: second.session.id }));
    expect(other.released).to.equal(0);
  });

  it('clears a chat on a full disk with held space', async () => {
    const space = new FakeStorageSpace();
    space.steps = 1;
    const f = coreFixture({ space });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' });
    const clear = f.chats.deleteBySession.bind(f.chats);
    f.chats.deleteBySession = async (sessionId) => {
      if (space.released === 0) throw diskFullError();
      return clear(sessionId);
    };
    await f.docChat.clearChat.execute({ userId: 'u1', sessionId: session.id });
    expect(f.chats.rows).to.deep.equal([]);
    expect(space.released).to.equal(1);
  });
});
