import { expect } from 'chai';
import { HandOverReader } from '../../fakes/hand-over-reader.js';
import { collectGarbage } from '../../support/collect-garbage.js';
import { coreFixture } from '../../support/core-fixture.js';

describe('RunIngestion memory', () => {
  it('does not hold the document’s bytes while the reader reads it', async () => {
    const reader = new HandOverReader();
    const f = coreFixture({ reader });
    const pages = Array.from({ length: 40 }, (_, i) => `Page ${i + 1} of the annual report. Revenue grew in quarter ${i % 4 + 1}.`);
    const { job } = await f.sessionWithUpload('u1', pages.join('\f'));
    const running = f.drain();
    await reader.waiting;
    await collectGarbage();
    const held = reader.bytes!.deref() !== undefined;
    reader.finish();
    await running;
    expect(held, 'the bytes handed to the reader are still reachable while it reads').to.equal(false);
    // And the pages it handed over were all indexed, though the pages it answered with have no text.
    expect(await f.docChat.getIngestJob.execute({ userId: 'u1', jobId: job.id })).to.include({ status: 'completed', pages: 40, chunks: 40 });
  });
});
