import { expect } from 'chai';
import { NotFoundError, UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { GetPageImage } from '../../../core/use-cases/get-page-image.js';
import { coreFixture } from '../../support/core-fixture.js';
import { CountingPageRenderer } from '../../fakes/counting-page-renderer.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

describe('GetPageImage', () => {
  async function setUp(cacheBytes?: number) {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', 'page one\fpage two', 'two.pdf');
    await f.drain();
    const renderer = new CountingPageRenderer();
    return { f, job, renderer, pages: new GetPageImage({ jobs: f.jobs, blobs: f.blobs, renderer, cacheBytes }) };
  }

  it('renders the owner’s page once, bounded to 1600 pixels, and serves it again from the cache with the same ETag', async () => {
    const { f, job, renderer, pages } = await setUp();
    const first = await pages.execute({ userId: 'u1', jobId: job.id, page: 2 });
    expect(first.contentType).to.equal('image/png');
    const again = await pages.execute({ userId: 'u1', jobId: job.id, page: 2, maxSide: 5000 });
    expect(again.etag).to.equal(first.etag);
    // The stored file is named by the hash taken when it was ingested: a renderer may keep it for the next page.
    const { sha256 } = (await f.jobs.findById(job.id))!;
    expect(sha256).to.match(/^[0-9a-f]{64}$/);
    expect(renderer.requests).to.deep.equal([{ contentKey: sha256, contentType: 'application/pdf', page: 2, maxSide: 1600, requestedBy: 'u1' }]);
    expect(renderer.documentSizes).to.deep.equal([new TextEncoder().encode('page one\fpage two').length]); // the stored file, read through
    const small = await pages.execute({ userId: 'u1', jobId: job.id, page: 2, maxSide: 10 });
    expect(small.etag).to.not.equal(first.etag);
    expect(renderer.requests.at(-1)).to.include({ maxSide: 100 });
    // Concurrent requests for one page share one rendering.
    await Promise.all([1, 2, 3].map(() => pages.execute({ userId: 'u1', jobId: job.id, page: 1 })));
    expect(renderer.requests.filter((r) => r.page === 1)).to.have.length(1);
  });

  it('drops the least recently used pages past its byte budget', async () => {
    const { job, renderer, pages } = await setUp(120);
    for (const page of [1, 2, 1]) await pages.execute({ userId: 'u1', jobId: job.id, page });
    // Each image is ~60 bytes: the two fit, so the third request was a hit; a new size pushes out page 2, not page 1.
    expect(renderer.requests).to.have.length(2);
    await pages.execute({ userId: 'u1', jobId: job.id, page: 1, maxSide: 800 });
    await pages.execute({ userId: 'u1', jobId: job.id, page: 1 });
    expect(renderer.requests).to.have.length(3);
    await pages.execute({ userId: 'u1', jobId: job.id, page: 2 });
    expect(renderer.requests).to.have.length(4);
  });

  it('hides another user’s job, and says "Page not found" past the last page or for an unreadable file', async () => {
    const { job, renderer, pages } = await setUp();
    const foreign = await rejection(pages.execute({ userId: 'u2', jobId: job.id, page: 1 }));
    expect(foreign).to.be.instanceOf(NotFoundError).and.have.property('message', 'Ingest job not found');
    // The job read 2 pages: page 3 is refused without rendering.
    expect(await rejection(pages.execute({ userId: 'u1', jobId: job.id, page: 3 }))).to.have.property('message', 'Page not found');
    expect(renderer.requests).to.deep.equal([]);
    renderer.failWith = new UnprocessableDocumentError('The file is not a readable PDF');
    expect(await rejection(pages.execute({ userId: 'u1', jobId: job.id, page: 1 }))).to.have.property('message', 'Page not found');
  });

  it('says "Page not found" for a page of a file no longer in storage (the renderer finds it gone when it reads it)', async () => {
    const { f, job, renderer, pages } = await setUp();
    await f.blobs.remove(job.key);
    expect(await rejection(pages.execute({ userId: 'u1', jobId: job.id, page: 1 }))).to.have.property('message', 'Page not found');
    expect(renderer.requests).to.have.length(1);
  });
});
