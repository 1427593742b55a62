import { ReadCancelledError } from '../../../core/domain/errors.js';
import { expect } from 'chai';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import { NOT_FOUND_ANSWER } from '../../../core/rag/prompt.js';
import { AskQuestion } from '../../../core/use-cases/ask-question.js';
import { FlakyVectorIndex } from '../../fakes/flaky-vector-index.js';
import { ManualClock, SequentialIds } from '../../fakes/fixed-clock-and-ids.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';
import { coreFixture } from '../../support/core-fixture.js';

// Two pages, hence two chunks: an index can fail after writing the first.
const ZANZIBAR = [
  'Zanzibar is an archipelago famous for cloves, nutmeg and cinnamon plantations.',
  'Stone Town on Zanzibar has carved wooden doors from the nineteenth century.',
].join('\f');
const TOWER = [
  'The Eiffel Tower was completed in 1889 by the company of Gustave Eiffel.',
  'The tower is 330 metres tall and was the tallest structure in the world for 41 years.',
].join('\f');

type Fixture = ReturnType<typeof coreFixture>;

/** Uploads a text "document" into an existing session and starts its job. */
async function ingestInto(f: Fixture, sessionId: string, text: string, filename: string) {
  const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
  f.blobs.put(upload.key, text, 'application/pdf');
  return f.docChat.startIngestion.execute({ userId: 'u1', sessionId, key: upload.key, filename, tags: {} });
}

const ask = (f: Fixture, sessionId: string, message: string) => f.docChat.askQuestion.execute({ userId: 'u1', sessionId, message });

describe('Chat cites only chunks of completed jobs', () => {
  it('does not cite chunks left by a job whose index failed mid-add and whose cleanup failed too', async () => {
    const chroma = new FlakyVectorIndex({ kind: 'lexical' }, 'Chroma');
    const f = coreFixture({ indexes: [chroma] });
    const bananas = await f.sessionWithUpload('u1', 'Bananas are yellow fruit rich in potassium.', 'bananas.pdf');
    await f.drain();
    const spices = await ingestInto(f, bananas.session.id, ZANZIBAR, 'zanzibar.pdf');
    chroma.goDownAfter = 1;
    await f.drain();

    expect(await f.jobs.findById(spices.id)).to.include({ status: 'failed' });
    expect((await f.jobs.findById(spices.id))?.error).to.match(/unavailable.*Chroma/);
    chroma.down = false; // the dependency is back
    expect(await chroma.count({ jobId: spices.id }), 'the orphan chunk is still indexed').to.equal(1);

    const orphan = await ask(f, bananas.session.id, 'Which spices grow on Zanzibar?');
    expect(orphan.sources).to.deep.equal([]);
    expect(orphan.answer).to.equal(NOT_FOUND_ANSWER);
    const fruit = await ask(f, bananas.session.id, 'Which fruit is rich in potassium?');
    expect(fruit.sources.map((s) => s.ingestId)).to.deep.equal([bananas.job.id]);
  });

  it('stops reading a document whose chunks an index refuses, and fails it naming that index', async () => {
    const chroma = new FlakyVectorIndex({ kind: 'lexical' }, 'Chroma');
    const f = coreFixture({ indexes: [chroma] });
    const { job } = await f.sessionWithUpload('u1', 'Bananas are yellow fruit rich in potassium.', 'bananas.pdf');
    let readOutcome: unknown;
    const read = f.reader.read.bind(f.reader);
    f.reader.read = (request) => read(request).catch((error: unknown) => {
      readOutcome = error;
      throw error;
    });
    chroma.down = true; // from the start: the index cannot even drop what an earlier run left
    f.reader.beforeAnswer = () => new Promise((resolve) => setTimeout(resolve, 20)); // still reading when it fails
    await f.drain();
    expect(readOutcome, 'the reader was stopped').to.be.instanceOf(ReadCancelledError);
    expect((await f.jobs.findById(job.id))?.error).to.match(/unavailable.*Chroma/);
  });

  it('does not cite a job still being indexed, though one index already holds its chunks; cites it once completed', async () => {
    const first = new InMemoryVectorIndex({ kind: 'lexical' });
    const second = new FlakyVectorIndex({ kind: 'lexical' });
    const f = coreFixture({ indexes: [first, second] });
    const { session, job } = await f.sessionWithUpload('u1', TOWER, 'tower.pdf');
    let midway: { status?: string; chunks: number; sources: unknown[] } | undefined;
    second.beforeAdd = async () => {
      second.beforeAdd = null;
      const answer = await ask(f, session.id, 'How tall is the Eiffel tower in metres?');
      midway = { status: (await f.jobs.findById(job.id))?.status, chunks: await first.count({ jobId: job.id }), sources: answer.sources };
    };
    await f.drain();

    // The first page is written to every index at once (the job's first checkpoint): the first index holds its chunk.
    expect(midway).to.deep.equal({ status: 'processing', chunks: 1, sources: [] });
    const done = await ask(f, session.id, 'How tall is the Eiffel tower in metres?');
    expect(done.sources.map((s) => s.ingestId)).to.include(job.id);
  });

  it('cites a completed job, and the chunks a reusing job (same content) points to', async () => {
    const f = coreFixture();
    const original = await f.sessionWithUpload('u1', TOWER, 'tower.pdf');
    await f.drain();
    const copy = await ingestInto(f, original.session.id, TOWER, 'copy.pdf');
    await f.drain();
    expect(await f.jobs.findById(copy.id)).to.include({ status: 'completed', reusedFrom: original.job.id });

    const result = await ask(f, original.session.id, 'How tall is the tower?');
    expect(result.sources.map((s) => s.ingestId)).to.include(original.job.id);
    expect(result.sources[0]).to.include({ filename: 'tower.pdf', page: 2 });
  });

  it('asks the index for more hits when unfinished chunks crowd out the completed ones', async () => {
    const f = coreFixture();
    const { session, job: big } = await f.sessionWithUpload('u1', Array(10).fill('The tower is 330 metres tall and made of iron.').join('\f'), 'big.pdf');
    const small = await ingestInto(f, session.id, 'A tower of Pisa leans.', 'pisa.pdf');
    await f.drain();
    // The big document outranks the small one on every word, and is not completed (a crash left it processing).
    await f.jobs.update(big.id, { status: 'processing', stage: 'indexing' });
    const askQuestion = new AskQuestion({
      sessions: f.sessions, chats: f.chats, jobs: f.jobs, indexes: f.indexes, llm: new ExtractiveAnswerer(),
      ids: new SequentialIds('q'), clock: new ManualClock(), retrieval: { candidates: 2 },
    });
    const result = await askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the iron tower?' });
    expect(result.sources.map((s) => s.ingestId)).to.deep.equal([small.id]);
  });
});

describe('Chat says which documents it is still reading', () => {
  const note = (names: string, them = 'them', are = 'they are') => `(Still reading ${names}: this answer does not draw on ${them} yet. Ask again once ${are} done.)`;

  it('names a document still queued under the answer (a "not found" too), and says nothing once it is read', async () => {
    const f = coreFixture();
    const { session, job } = await f.sessionWithUpload('u1', TOWER, 'tower.pdf');
    const early = await ask(f, session.id, 'How tall is the Eiffel tower in metres?');
    expect(early.answer).to.equal(`${NOT_FOUND_ANSWER}\n\n${note('tower.pdf', 'it', 'it is')}`);
    expect(early.sources).to.deep.equal([]);
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed' });
    const later = await ask(f, session.id, 'How tall is the Eiffel tower in metres?');
    expect(later.answer).to.match(/330 metres/).and.not.match(/Still reading/);
  });

  it('names two and counts the rest; leaves out documents not asked of (not chosen, or off the filters)', async () => {
    const f = coreFixture();
    const { session, job: tower } = await f.sessionWithUpload('u1', TOWER, 'tower.pdf', { kind: 'landmark' });
    await f.drain();
    const queued = [];
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf']) queued.push(await ingestInto(f, session.id, ZANZIBAR, name));
    const all = await ask(f, session.id, 'How tall is the Eiffel tower in metres?');
    expect(all.answer).to.match(/330 metres/);
    expect(all.answer.endsWith(`\n\n${note('a.pdf, b.pdf and 2 more')}`), all.answer).to.equal(true);
    expect(all.sources.map((s) => s.ingestId)).to.include(tower.id);

    const chosen = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the tower?', documents: [tower.id, queued[2]!.id] });
    expect(chosen.answer.endsWith(`\n\n${note('c.pdf', 'it', 'it is')}`), chosen.answer).to.equal(true);
    const filtered = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is the tower?', filters: { kind: 'landmark' } });
    expect(filtered.answer).to.not.match(/Still reading/);
  });

  it('streams the note as the last piece of the answer, and stores it with the answer', async () => {
    const f = coreFixture();
    const { session } = await f.sessionWithUpload('u1', TOWER, 'tower.pdf');
    const deltas: string[] = [];
    for await (const event of f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'How tall is the tower?' }, new AbortController().signal)) {
      if (event.type === 'delta') deltas.push(event.text);
    }
    expect(deltas.at(-1)).to.equal(`\n\n${note('tower.pdf', 'it', 'it is')}`);
    const stored = await f.chats.recent(session.id, 2);
    expect(stored.at(-1)?.content).to.equal(deltas.join(''));
  });
});

describe('RunIngestion cleanup after a failure', () => {
  it('tries every index even when the first ones throw, and logs each failure', async () => {
    const first = new FlakyVectorIndex({ kind: 'lexical' }, 'Chroma');
    const second = new FlakyVectorIndex({ kind: 'lexical' }, 'other');
    const last = new InMemoryVectorIndex({ kind: 'lexical' });
    const f = coreFixture({ indexes: [first, second, last] });
    const { job } = await f.sessionWithUpload('u1', TOWER);
    await f.drain();
    // An earlier run indexed everywhere and stopped before completing; the rerun meets an outage as it adds.
    await f.jobs.update(job.id, { status: 'processing', stage: 'indexing' });
    first.goDownAfter = 0;
    first.beforeAdd = async () => void (second.down = true); // both go down once indexing has begun
    await f.docChat.runIngestion.execute(job.id);

    expect(await f.jobs.findById(job.id)).to.include({ status: 'failed' });
    expect(await last.count({ jobId: job.id }), 'the last index was cleaned').to.equal(0);
    const failures = f.logger.lines.filter((l) => l.level === 'error' && l.message.startsWith('could not remove chunks'));
    expect(failures.map((l) => [l.fields?.jobId, l.fields?.index])).to.deep.equal([[job.id, 0], [job.id, 1]]);
  });
});
