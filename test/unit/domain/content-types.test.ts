import { expect } from 'chai';
import { AcceptedTypes, CONTRACT_TYPES, EXTRA_DOCUMENT_TYPES } from '../../../core/domain/content-types.js';
import { TYPE_ERROR } from '../../../core/domain/uploads.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e as Error);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('AcceptedTypes (ACCEPTED_TYPES)', () => {
  it('by default takes exactly the contract’s three types, with the contract’s refusal text', () => {
    expect(CONTRACT_TYPES.list).to.deep.equal(['application/pdf', 'image/jpeg', 'image/jpg']);
    expect(CONTRACT_TYPES.typeError).to.equal('Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg');
    expect(CONTRACT_TYPES.typeError).to.equal(TYPE_ERROR);
    expect(CONTRACT_TYPES.accepts('text/plain')).to.equal(false);
    expect(CONTRACT_TYPES.fromName('notes.txt')).to.equal(null);
    expect(CONTRACT_TYPES.fromName('scan.JPG')).to.equal('image/jpeg');
    expect(CONTRACT_TYPES.extensions).to.deep.equal({ pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg' });
  });

  it('lists exactly the types taken after the contract’s prefix when more are turned on', () => {
    const accepted = new AcceptedTypes(['text/plain', DOCX]);
    expect(accepted.typeError).to.equal(`Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg, text/plain, ${DOCX}`);
    expect(accepted.fromName('contract.docx')).to.equal(DOCX);
    expect(accepted.fromName('budget.xlsx')).to.equal(null);
    expect(accepted.accepts('text/plain')).to.equal(true);
  });

  it('refuses a type no reader takes, so a typo cannot accept files nothing can read', () => {
    expect(() => new AcceptedTypes(['application/x-msdownload'])).to.throw(/No reader for application\/x-msdownload/);
    expect(() => new AcceptedTypes(['constructor'])).to.throw(/No reader/);
    expect(EXTRA_DOCUMENT_TYPES).to.include('message/rfc822').and.not.include('application/pdf');
  });

  it('the upload-URL and ingest use cases take the turned-on types and refuse the others with the wider text', async () => {
    const accepted = new AcceptedTypes(['text/markdown']);
    const f = coreFixture({ acceptedTypes: accepted });
    const refused = await rejection(f.docChat.createUploadUrl.execute({ userId: 'u', filename: 'a.png', contentType: 'image/png', contentSize: 10 }));
    expect(refused.message).to.equal('Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg, text/markdown');
    const session = await f.docChat.createSession.execute({ userId: 'u', label: 'notes' });
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u', filename: 'README.md', contentType: 'text/markdown', contentSize: 7 });
    f.blobs.put(upload.key, '# Title', '');
    const job = await f.docChat.startIngestion.execute({ userId: 'u', sessionId: session.id, key: upload.key, filename: 'README.md', tags: {} });
    expect(job.contentType).to.equal('text/markdown');
    expect(f.docChat.acceptedTypes).to.equal(accepted);
  });
});
