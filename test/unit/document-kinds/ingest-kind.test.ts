import { expect } from 'chai';
import { documentKindClassifier } from '../../../adapters/document-kinds/index.js';
import { ValidationError } from '../../../core/domain/errors.js';
import { coreFixture } from '../../support/core-fixture.js';

const RECEIPT = ['CORNER SHOP', 'MILK 1,19', 'BREAD 2,49', 'APPLES 3,29', 'BUTTER 1,99', 'SUMME 8,96', 'BAR 10,00', 'RÜCKGELD 1,04'].join('\n');
const LEASE = 'This lease is made between the landlord and the tenant. The tenant pays a deposit of two months of rent before moving in. '.repeat(6);

describe('ingestion records a document’s kind', () => {
  it('tells it from the pages read, and keeps it with the job', async () => {
    const f = coreFixture({ classifier: documentKindClassifier });
    const receipt = await f.sessionWithUpload('u1', RECEIPT, 'receipt.pdf');
    const lease = await f.sessionWithUpload('u1', LEASE, 'lease.pdf');
    await f.drain();
    expect((await f.jobs.findById(receipt.job.id))?.kind).to.equal('receipt');
    expect((await f.jobs.findById(lease.job.id))?.kind).to.equal('other');
  });

  it('takes a valid `document_kind` tag instead of the classifier, from the start; refuses an unknown one and records nothing', async () => {
    const f = coreFixture({ classifier: documentKindClassifier });
    const tagged = await f.sessionWithUpload('u1', LEASE, 'lease.pdf', { document_kind: 'letter' });
    expect(tagged.job.kind).to.equal('letter');
    await f.drain();
    expect((await f.jobs.findById(tagged.job.id))?.kind).to.equal('letter');
    const before = (await f.jobs.listBySession(tagged.session.id)).length;
    const error = await f.sessionWithUpload('u1', LEASE, 'other.pdf', { document_kind: 'invoice' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as Error).message).to.equal('tags.document_kind must be one of: receipt, financial-report, form, letter, other');
    expect((await f.jobs.listBySession(tagged.session.id)).length).to.equal(before);
  });

  it('tells none without a classifier (the core does not classify)', async () => {
    const f = coreFixture();
    const { job } = await f.sessionWithUpload('u1', RECEIPT, 'receipt.pdf');
    await f.drain();
    expect((await f.jobs.findById(job.id))?.kind).to.equal(undefined);
  });
});
