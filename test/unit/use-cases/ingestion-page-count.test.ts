import { expect } from 'chai';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
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

  it('says "recognizing" while the page being read is a photo or scan read by OCR', async () => {
    const f = coreFixture();
    const photo = FakeDocumentReader.jpeg('TOTAL 18.00 EUR paid by card');
    const session = await f.docChat.createSession.execute({ userId: 'u1', label: 'receipts' });
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'receipt.jpg', contentType: 'image/jpeg', contentSize: photo.length });
    f.blobs.put(upload.key, photo, 'image/jpeg');
    const job = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: 'receipt.jpg', tags: {} });
    let during: Awaited<ReturnType<typeof f.jobs.findById>> = null;
    f.reader.beforeAnswer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 450));
      during = await f.jobs.findById(job.id);
    };
    await f.drain();
    expect(during).to.include({ status: 'processing', stage: 'recognizing', pages: 1, readingPage: 1 });
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed' });
  });
});
