import { expect } from 'chai';
import { NotFoundError, UnprocessableDocumentError, ValidationError } from '../../../core/domain/errors.js';
import { FindPassageOnPage, MAX_PASSAGE_CHARS } from '../../../core/use-cases/find-passage-on-page.js';
import { coreFixture } from '../../support/core-fixture.js';
import { CountingPageRenderer } from '../../fakes/counting-page-renderer.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

describe('FindPassageOnPage', () => {
  async function setUp() {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', 'the first page\fa fee of 12 dollars is waived', 'fees.pdf');
    await f.drain();
    const renderer = new CountingPageRenderer();
    return { f, job, renderer, find: new FindPassageOnPage({ jobs: f.jobs, blobs: f.blobs, renderer }) };
  }

  it('finds the owner’s passage on the page, trimmed, in the stored file named by its hash; [] where the page does not hold it', async () => {
    const { f, job, renderer, find } = await setUp();
    const areas = await find.execute({ userId: 'u1', jobId: job.id, page: 2, text: '  12 Dollars is waived\n' });
    expect(areas).to.have.length(1);
    expect(areas[0].y).to.be.closeTo('a fee of '.length / 'a fee of 12 dollars is waived'.length, 1e-9);
    const { sha256 } = (await f.jobs.findById(job.id))!;
    expect(renderer.searches).to.deep.equal([{ contentKey: sha256, contentType: 'application/pdf', page: 2, text: '12 Dollars is waived', requestedBy: 'u1' }]);
    expect(await find.execute({ userId: 'u1', jobId: job.id, page: 1, text: '12 dollars is waived' })).to.deep.equal([]);
  });

  it('refuses a blank or overlong passage before reading anything', async () => {
    const { job, renderer, find } = await setUp();
    const blank = await rejection(find.execute({ userId: 'u1', jobId: job.id, page: 1, text: ' \n ' }));
    expect(blank).to.be.instanceOf(ValidationError).and.have.property('message', 'text: the passage to find must not be blank');
    const long = await rejection(find.execute({ userId: 'u1', jobId: job.id, page: 1, text: 'x'.repeat(MAX_PASSAGE_CHARS + 1) }));
    expect(long).to.be.instanceOf(ValidationError).and.have.property('message', `text: the passage to find must be at most ${MAX_PASSAGE_CHARS} characters`);
    expect(await find.execute({ userId: 'u1', jobId: job.id, page: 1, text: 'x'.repeat(MAX_PASSAGE_CHARS) })).to.deep.equal([]);
    expect(renderer.searches).to.have.length(1);
  });

  it('hides another user’s job, and says "Page not found" past the last page, for an unreadable or a deleted file', async () => {
    const { f, job, renderer, find } = await setUp();
    const foreign = await rejection(find.execute({ userId: 'u2', jobId: job.id, page: 1, text: 'the first page' }));
    expect(foreign).to.be.instanceOf(NotFoundError).and.have.property('message', 'Ingest job not found');
    expect(await rejection(find.execute({ userId: 'u1', jobId: job.id, page: 3, text: 'the first page' }))).to.have.property('message', 'Page not found');
    expect(renderer.searches).to.deep.equal([]);
    renderer.failWith = new UnprocessableDocumentError('The file is not a readable PDF');
    expect(await rejection(find.execute({ userId: 'u1', jobId: job.id, page: 1, text: 'the first page' }))).to.have.property('message', 'Page not found');
    renderer.failWith = null;
    await f.blobs.remove(job.key);
    expect(await rejection(find.execute({ userId: 'u1', jobId: job.id, page: 1, text: 'the first page' }))).to.have.property('message', 'Page not found');
  });
});
