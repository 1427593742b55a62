import { expect } from 'chai';
import type { Chunk, ExtractedPage, IngestJob } from '../../../core/domain/model.js';
import { pageChunker } from '../../../core/rag/chunking.js';
import { coreFixture } from '../../support/core-fixture.js';

/** Sixteen pages, each of its own words: a chunk shows which page it came from. */
const PAGES = Array.from({ length: 16 }, (_, i) => `Chapter ${i + 1}. The harbour master of district ${i + 1} logged ${(i + 1) * 7} ships that spring, and the ledger was closed.`);
const DOC = PAGES.join('\f');

/** What a chunk says, without the job it belongs to: two runs of one document compare equal. */
const content = (chunks: Chunk[]) => chunks.map(({ page, ordinal, text }) => ({ page, ordinal, text })).sort((a, b) => a.ordinal - b.ordinal);

/** The chunks of an uninterrupted run of DOC. */
async function reference(): Promise<Chunk[]> {
  const f = coreFixture();
  const { job } = await f.sessionWithUpload('u1', DOC);
  await f.drain();
  expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', pages: PAGES.length });
  return f.index.all();
}

/** Each page's chunks once: one chunk per ordinal, and for every page as many as the reference has. */
function expectEveryPageOnce(chunks: Chunk[], expected: Chunk[]): void {
  expect(new Set(chunks.map((c) => c.id)).size).to.equal(chunks.length);
  expect(content(chunks)).to.deep.equal(content(expected));
}

/**
 * What a run that died after indexing pages 1..pages leaves: their chunks in the index, a checkpoint, the page it was
 * reading, and chunks it wrote past the checkpoint before the kill (numbered beyond any the document has: only the
 * deletion past the checkpoint removes them, no later write replaces them).
 */
async function diedAfter(f: ReturnType<typeof coreFixture>, job: IngestJob, pages: number, state: Partial<IngestJob>, run = 1): Promise<void> {
  const chunker = pageChunker();
  const written = PAGES.slice(0, pages).flatMap((text, i) => chunker({ page: i + 1, text, method: 'text' } satisfies ExtractedPage));
  const { ordinal, section } = chunker.position();
  const chunk = (page: number, ordinal: number, text: string): Chunk => ({ id: `${job.id}:${ordinal}`, sessionId: job.sessionId, jobId: job.id, filename: job.filename, page, ordinal, text, tags: {} });
  await f.index.add([...written.map((d) => chunk(d.page, d.ordinal, d.text)), chunk(pages + 1, ordinal, 'half written by the killed run'), chunk(pages + 2, ordinal + 1000, 'also written past the checkpoint')]);
  await f.jobs.update(job.id, {
    status: 'processing', stage: 'extracting', sha256: undefined,
    checkpoint: { pages, chunks: ordinal, ocrSkippedPages: 0, section, run }, ...state,
  });
}

describe('RunIngestion going on from a checkpoint', () => {
  it('a run retried after an internal error reads on from its last indexed page: no page read or indexed twice', async () => {
    const expected = await reference();
    const f = coreFixture({ ingestRetry: { checkpointMs: 0 } });
    const { job } = await f.sessionWithUpload('u1', DOC);
    // The first read hands over the first half of the pages, then its extraction process "crashes".
    let reads = 0;
    f.reader.beforeAnswer = async () => {
      if (++reads === 1) throw new Error('The document extraction worker stopped unexpectedly: killed by SIGKILL');
    };
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([1, 9]);
    const done = await f.jobs.findById(job.id);
    expect(done).to.include({ status: 'completed', pages: PAGES.length, chunks: expected.length, attempts: 2 });
    expect(done).to.not.have.any.keys('checkpoint', 'readingPage', 'diedOnPage', 'error');
    expectEveryPageOnce(f.index.all(), expected);
  });

  it('runs that each indexed further pages do not count: failing more often than maxAttempts, the job completes', async () => {
    const expected = await reference();
    const f = coreFixture({ ingestRetry: { checkpointMs: 0, maxAttempts: 3 } });
    const { job } = await f.sessionWithUpload('u1', DOC);
    // Every read but the last hands over half of what is left, then fails: 1-8, 9-12, 13-14, 15, then 16 to the end.
    f.reader.beforeAnswer = async () => {
      if (f.reader.calls < 5) throw new Error('extraction process crashed');
    };
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([1, 9, 13, 15, 16]);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', pages: PAGES.length, chunks: expected.length, attempts: 5 });
    expectEveryPageOnce(f.index.all(), expected);
  });

  it('runs in a row that index nothing further are counted, and fail the job after maxAttempts', async () => {
    const f = coreFixture({ ingestRetry: { checkpointMs: 0 } });
    const { job } = await f.sessionWithUpload('u1', DOC);
    await diedAfter(f, job, 5, { attempts: 1, readingPage: 6 });
    f.reader.failWith = new Error('extraction process crashed'); // before any page
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([]); // failWith throws before the request is looked at
    expect(f.reader.calls).to.equal(3);
    const failed = await f.jobs.findById(job.id);
    expect(failed).to.include({ status: 'failed', attempts: 4, error: 'Ingestion failed 3 times because of an internal error; try again later, and report it if it persists' });
    expect(failed).to.not.have.any.keys('checkpoint', 'readingPage');
    expect(f.index.all()).to.deep.equal([]);
  });

  it('a run after one that died goes on from its checkpoint, replacing what the dead run wrote past it', async () => {
    const expected = await reference();
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    await diedAfter(f, job, 5, { attempts: 1, readingPage: 6 });
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([6]);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', pages: PAGES.length, chunks: expected.length, attempts: 2 });
    expectEveryPageOnce(f.index.all(), expected);
  });

  it('three runs killed with progress between, and one more killed before any: the job still completes', async () => {
    const expected = await reference();
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    // Runs 1-3 each got further, run 3 to page 11 (it died reading page 12); run 4 died before it read a page.
    await diedAfter(f, job, 11, { attempts: 4, diedOnPage: 12 }, 3);
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([12]);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', chunks: expected.length, attempts: 5 });
    expectEveryPageOnce(f.index.all(), expected);
  });

  it('a job whose runs died twice in a row reading the same page fails naming it, and leaves no chunks', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    // Run 1 died reading page 6 after indexing 1-5; run 2 started there (recording that run 1 died on 6) and died too.
    await diedAfter(f, job, 5, { attempts: 2, readingPage: 6, diedOnPage: 6 });
    await f.drain();
    expect(f.reader.calls).to.equal(0);
    const failed = await f.jobs.findById(job.id);
    expect(failed).to.include({ status: 'failed', attempts: 2 });
    expect(failed?.error).to.equal(
      'Ingestion stopped twice while reading page 6 (the process reading it was cut short there each time, e.g. out of memory); ' +
        'remove that page or split the document there and upload it again, and report it if this persists',
    );
    expect(failed).to.not.have.any.keys('checkpoint', 'readingPage', 'stage');
    expect(f.index.all()).to.deep.equal([]);
  });

  it('a run that died on another page than the run before it goes on', async () => {
    const expected = await reference();
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', DOC);
    await diedAfter(f, job, 5, { attempts: 2, readingPage: 6, diedOnPage: 2 });
    await f.drain();
    expect(f.reader.firstPages).to.deep.equal([6]);
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', chunks: expected.length, attempts: 3 });
    expectEveryPageOnce(f.index.all(), expected);
  });

  it('a resumed job whose content was meanwhile ingested into the session reuses that, dropping what it had indexed', async () => {
    const f = coreFixture();
    const { job, session } = await f.sessionWithUpload('u1', DOC);
    await diedAfter(f, job, 5, { attempts: 1, readingPage: 6 });
    // The same file uploaded again into the session, and completed while the first job waited to be resumed.
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'copy.pdf', contentType: 'application/pdf', contentSize: DOC.length });
    f.blobs.put(upload.key, DOC, 'application/pdf');
    const copy = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: 'copy.pdf', tags: {} });
    await f.docChat.runIngestion.execute(copy.id);
    await f.drain();
    const done = await f.jobs.findById(job.id);
    expect(done).to.include({ status: 'completed', reusedFrom: copy.id });
    expect(done).to.not.have.any.keys('checkpoint', 'readingPage');
    expect(await f.index.count({ jobId: job.id })).to.equal(0);
  });

  it('records the page it reads before reading, and the checkpoint with the next page as it indexes', async () => {
    const f = coreFixture({ ingestRetry: { checkpointMs: 0 } });
    const { job } = await f.sessionWithUpload('u1', DOC);
    const seen: Partial<IngestJob>[] = [];
    f.reader.beforeAnswer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the indexer takes the first half meanwhile
      const { readingPage, checkpoint, diedOnPage } = (await f.jobs.findById(job.id))!;
      seen.push({ readingPage, checkpoint, diedOnPage });
    };
    await f.drain();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.deep.include({ readingPage: 9, diedOnPage: undefined });
    expect(seen[0]!.checkpoint).to.deep.include({ pages: 8, run: 1, ocrSkippedPages: 0 });
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed' });
  });
});
