import { expect } from 'chai';
import { coreFixture } from '../../support/core-fixture.js';

describe('Ingestion tells the page count while it reads', () => {
  it('records the document\'s page count and the page being read while processing; the pages read once completed', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', ['First page text about ferries.', 'Second page about tickets.', 'Third page about Sundays.'].join('\f'));
    let during: Awaited<ReturnType<typeof f.jobs.findById>> = null;
    f.reader.beforeAnswer = async () => {
      // The progress writer is throttled; its trailing write lands within its interval.
      await new Promise((resolve) => setTimeout(resolve, 450));
      during = await f.jobs.findById(job.id);
    };
    await f.drain();
    expect(during).to.include({ status: 'processing', stage: 'extracting', pages: 3, readingPage: 3 });
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed', pages: 3 });
  });
});
