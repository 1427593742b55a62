import { expect } from 'chai';
import { NotFoundError, ValidationError } from '../../../core/domain/errors.js';
import { EMPTY_SEARCH_QUERY, LONG_SEARCH_QUERY } from '../../../core/use-cases/search-records.js';
import { FlakyVectorIndex } from '../../fakes/flaky-vector-index.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

const DOC = [
  'The Eiffel Tower was completed in 1889. It was designed by the engineering company of Gustave Eiffel.',
  'The tower is 330 metres tall. It was the tallest man-made structure in the world for 41 years.',
].join('\f');
const OTHER = 'Penguins huddle together through the antarctic winter to keep warm.';

/** A user with DOC in one session and OTHER in another, both ingested. */
async function library(options: Parameters<typeof coreFixture>[0] = {}) {
  const f = coreFixture(options);
  const eiffel = await f.sessionWithUpload('u1', DOC, 'eiffel.pdf', { topic: 'towers' });
  const penguins = await f.sessionWithUpload('u1', OTHER, 'penguins.pdf');
  await f.drain();
  return { f, eiffel, penguins };
}

describe('ListLibrary', () => {
  it('lists the user’s documents once per content, each with the sessions holding it, newest first', async () => {
    const { f, eiffel, penguins } = await library();
    // The same bytes under another name, into the penguins' session: one document held by two sessions.
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'copy.pdf', contentType: 'application/pdf', contentSize: DOC.length });
    f.blobs.put(upload.key, DOC, 'application/pdf');
    const again = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: penguins.session.id, key: upload.key, filename: 'copy.pdf', tags: {} });
    await f.drain();
    const { documents, truncated } = await f.docChat.listLibrary.execute({ userId: 'u1' });
    expect(truncated).to.equal(false);
    expect(documents.map((d) => d.filename)).to.deep.equal(['eiffel.pdf', 'penguins.pdf']);
    const [tower, birds] = documents;
    expect(tower.id).to.match(/^[0-9a-f]{64}$/).and.equal((await f.jobs.findById(eiffel.job.id))!.sha256);
    expect(tower).to.include({ contentType: 'application/pdf', pages: 2, chunks: 2 });
    expect(tower.sessions.map((h) => [h.sessionId, h.ingestId])).to.deep.equal([
      [eiffel.session.id, eiffel.job.id],
      [penguins.session.id, again.id],
    ]);
    expect(birds.sessions.map((h) => h.sessionId)).to.deep.equal([penguins.session.id]);
    expect(await f.docChat.listLibrary.execute({ userId: 'u2' })).to.deep.equal({ documents: [], truncated: false });
  });

  it('leaves out failed and unfinished documents', async () => {
    const { f } = await library();
    const empty = await f.sessionWithUpload('u1', '  ', 'blank.pdf');
    await f.drain();
    expect((await f.jobs.findById(empty.job.id))!.status).to.equal('failed');
    await f.sessionWithUpload('u1', 'Still queued text about volcanoes.', 'queued.pdf');
    const names = (await f.docChat.listLibrary.execute({ userId: 'u1' })).documents.map((d) => d.filename);
    expect(names).to.have.members(['eiffel.pdf', 'penguins.pdf']).and.have.length(2);
  });
});

describe('AddLibraryDocument', () => {
  it('adds a document to another session without reading it again: its chunks copied, answered from there', async () => {
    const { f, eiffel, penguins } = await library();
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    const reads = f.reader.calls;
    const { job, created } = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId });
    expect(created).to.equal(true);
    expect(f.reader.calls).to.equal(reads);
    expect(job).to.include({ sessionId: penguins.session.id, status: 'completed', filename: 'eiffel.pdf', copiedFrom: eiffel.job.id, chunks: 2, pages: 2, key: eiffel.key });
    expect(job.tags).to.deep.equal({ topic: 'towers' });
    expect(await f.jobs.findById(job.id)).to.deep.equal(job);
    expect(await f.index.count({ jobId: job.id, sessionId: penguins.session.id })).to.equal(2);
    const answer = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: penguins.session.id, message: 'How tall is the tower?' });
    expect(answer.answer).to.match(/330 metres/);
    expect(answer.sources.some((s) => s.ingestId === job.id)).to.equal(true);
    expect((await f.docChat.listLibrary.execute({ userId: 'u1' })).documents[0].sessions.map((h) => h.sessionId)).to.deep.equal([
      eiffel.session.id, penguins.session.id,
    ]);
  });

  it('is idempotent: a session that holds the content gets its job back, nothing copied', async () => {
    const { f, eiffel, penguins } = await library();
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    const own = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: eiffel.session.id, documentId });
    expect(own).to.deep.include({ created: false });
    expect(own.job.id).to.equal(eiffel.job.id);
    const first = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId });
    const second = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId });
    expect(second).to.deep.equal({ job: first.job, created: false });
    expect(await f.index.count({ sessionId: penguins.session.id })).to.equal(3);
  });

  it('two adds at the same time make one job and one copy of the chunks', async () => {
    const { f, eiffel, penguins } = await library();
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    const both = await Promise.all([1, 2].map(() => f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId })));
    expect(both.map((r) => r.created).sort()).to.deep.equal([false, true]);
    expect(both[0].job.id).to.equal(both[1].job.id);
    expect(both[0].job.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await f.jobs.listBySession(penguins.session.id)).map((j) => j.filename)).to.have.members(['penguins.pdf', 'eiffel.pdf']);
    expect(await f.index.count({ jobId: both[0].job.id })).to.equal(2);
  });

  it('removing it from one session leaves the other sessions’ copies and the stored file', async () => {
    const { f, eiffel, penguins } = await library();
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    const { job } = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId });
    await f.docChat.deleteDocument.execute({ userId: 'u1', sessionId: eiffel.session.id, ingestId: eiffel.job.id });
    expect(await f.index.count({ jobId: job.id })).to.equal(2);
    expect(await f.blobs.stat(eiffel.key)).to.not.equal(null);
    const answer = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: penguins.session.id, message: 'When was the Eiffel Tower completed?' });
    expect(answer.answer).to.match(/1889/);
    // Added again to the first session, from the copy that is left.
    const back = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: eiffel.session.id, documentId });
    expect(back.job.copiedFrom).to.equal(job.id);
    await f.docChat.deleteDocument.execute({ userId: 'u1', sessionId: penguins.session.id, ingestId: job.id });
    await f.docChat.deleteDocument.execute({ userId: 'u1', sessionId: eiffel.session.id, ingestId: back.job.id });
    expect(await f.blobs.stat(eiffel.key)).to.equal(null);
    expect(await rejection(f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId }))).to.be.instanceOf(NotFoundError);
  });

  it('another user’s document or session, or an unknown document, is not found; nothing is written', async () => {
    const { f, eiffel, penguins } = await library();
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    const strangers = await f.docChat.createSession.execute({ userId: 'u2', label: 'mine' });
    const before = await f.index.count({});
    const theirs = await rejection(f.docChat.addLibraryDocument.execute({ userId: 'u2', sessionId: strangers.id, documentId }));
    expect(theirs).to.be.instanceOf(NotFoundError).and.have.property('message', 'Document not found');
    const intoTheirs = await rejection(f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: strangers.id, documentId }));
    expect(intoTheirs).to.be.instanceOf(NotFoundError).and.have.property('message', 'Session not found');
    const unknown = await rejection(f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId: 'f'.repeat(64) }));
    expect(unknown).to.be.instanceOf(NotFoundError);
    expect(await f.index.count({})).to.equal(before);
    expect(await f.jobs.listBySession(strangers.id)).to.deep.equal([]);
  });

  it('a copy cut short by an index outage leaves no chunk and no record behind', async () => {
    const flaky = new FlakyVectorIndex({ kind: 'lexical' }, 'chroma');
    const lexical = new InMemoryVectorIndex({ kind: 'lexical' });
    const { f, eiffel, penguins } = await library({ indexes: [lexical, flaky] });
    const documentId = (await f.jobs.findById(eiffel.job.id))!.sha256!;
    flaky.down = true;
    const error = await rejection(f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId }));
    expect(error).to.have.property('code', 'UPSTREAM_UNAVAILABLE');
    expect(await lexical.count({ sessionId: penguins.session.id })).to.equal(1);
    expect((await f.jobs.listBySession(penguins.session.id)).map((j) => j.filename)).to.deep.equal(['penguins.pdf']);
    flaky.down = false;
    expect((await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: penguins.session.id, documentId })).created).to.equal(true);
    expect(await flaky.count({ sessionId: penguins.session.id })).to.equal(3);
  });
});

describe('SearchRecords', () => {
  it('searches the user’s sessions and messages; refuses an empty or too long query', async () => {
    const { f, eiffel } = await library();
    await f.docChat.renameSession.execute({ userId: 'u1', sessionId: eiffel.session.id, label: 'Paris landmarks' });
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: eiffel.session.id, message: 'How tall is the tower?' });
    const found = await f.docChat.searchRecords.execute({ userId: 'u1', query: '  landmarks ' });
    expect(found.sessions.map((s) => s.label)).to.deep.equal(['Paris landmarks']);
    const asked = await f.docChat.searchRecords.execute({ userId: 'u1', query: 'tall tower' });
    expect(asked.messages.map((m) => m.role)).to.include('user');
    expect((await f.docChat.searchRecords.execute({ userId: 'u2', query: 'tower' })).messages).to.deep.equal([]);
    for (const query of ['', '   ']) {
      expect(await rejection(f.docChat.searchRecords.execute({ userId: 'u1', query }))).to.be.instanceOf(ValidationError).and.have.property('message', EMPTY_SEARCH_QUERY);
    }
    expect(await rejection(f.docChat.searchRecords.execute({ userId: 'u1', query: 'a'.repeat(201) }))).to.be.instanceOf(ValidationError).and.have.property('message', LONG_SEARCH_QUERY);
    expect(await f.docChat.searchRecords.execute({ userId: 'u1', query: 'a'.repeat(200) })).to.deep.equal({ sessions: [], messages: [] });
  });
});
