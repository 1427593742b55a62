import { expect } from 'chai';
import { HandOverReader } from '../../fakes/hand-over-reader.js';
import { collectGarbage } from '../../support/collect-garbage.js';
import { coreFixture } from '../../support/core-fixture.js';

describe('RunIngestion memory', () => {
  it('hands the reader a stored document to stream, and holds none of its pieces while the reader reads it', async () => {
    const reader = new HandOverReader();
    const f = coreFixture({ reader });
    // ~60 KB: the fake store gives it in several pieces of its own.
    const pages = Array.from({ length: 1_000 }, (_, i) => `Page ${i + 1} of the annual report. Revenue grew in quarter ${i % 4 + 1}.`);
    const { job } = await f.sessionWithUpload('u1', pages.join('\f'));
    const running = f.drain();
    await reader.waiting;
    await collectGarbage();
    const held = reader.pieces.filter((piece) => piece.deref() !== undefined).length;
    // Those of the first pass too (the hash), which the reader never saw.
    const scanned = f.blobs.piecesStreamed.length - reader.pieces.length;
    const heldByAnyone = f.blobs.piecesStreamed.filter((piece) => piece.deref() !== undefined).length;
    reader.finish();
    await running;
    expect(reader.streamed, 'the document came as a stream, not as bytes read whole').to.equal(true);
    expect(reader.pieces.length, 'pieces').to.be.greaterThan(1);
    expect(held, 'pieces of the document still reachable while the reader reads it').to.equal(0);
    expect(scanned, 'pieces read to hash the document').to.equal(reader.pieces.length);
    expect(heldByAnyone, 'pieces of either pass still reachable').to.equal(0);
    // And the pages it handed over were all indexed, though the pages it answered with have no text.
    expect(await f.docChat.getIngestJob.execute({ userId: 'u1', jobId: job.id })).to.include({ status: 'completed', pages: 1_000, chunks: 1_000 });
  });
});
