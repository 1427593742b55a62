import { expect } from 'chai';
import { AcceptedTypes } from '../../../core/domain/content-types.js';
import type { DocumentAttachment } from '../../../core/ports/document-reader.js';
import { attachmentJobId } from '../../../core/use-cases/mail-attachments.js';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
import { coreFixture } from '../../support/core-fixture.js';

const MAIL = 'From: ana@example.org\nSubject: The mooring\n\nThe contract and a photo of the receipt are attached.';
const bytes = (text: string) => new TextEncoder().encode(text);
const CONTRACT: DocumentAttachment = { filename: 'contract.pdf', contentType: 'application/pdf', bytes: bytes('The mooring costs 310 euros a month.\fNotice is three months.') };
const RECEIPT: DocumentAttachment = { filename: 'receipt.jpg', contentType: 'image/jpeg', bytes: FakeDocumentReader.jpeg('Harbour office receipt: paid 620 euros.') };

/** A fixture whose reader finds CONTRACT and RECEIPT (or `attachments`) in the mail MAIL. */
function mailFixture(options: Parameters<typeof coreFixture>[0] = {}, attachments = [CONTRACT, RECEIPT]) {
  const f = coreFixture(options);
  f.reader.attachmentsOf = (text) => (text === MAIL ? attachments : []);
  return f;
}

describe('An e-mail’s attachments as documents of their own', () => {
  it('each becomes a job of the mail’s session (its name, the mail’s tags, attachedTo the mail), stored, ingested and cited by its name', async () => {
    const f = mailFixture();
    const { session, job } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml', { institution: 'harbour' });
    await f.drain();
    const documents = await f.docChat.listDocuments.execute({ userId: 'u1', sessionId: session.id });
    expect(documents.map((d) => [d.filename, d.status, d.attachedTo])).to.have.deep.members([
      ['mooring.eml', 'completed', undefined],
      ['contract.pdf', 'completed', job.id],
      ['receipt.jpg', 'completed', job.id],
    ]);
    const contract = documents.find((d) => d.filename === 'contract.pdf')!;
    expect(contract).to.include({ id: attachmentJobId(job.id, 0), pages: 2, contentType: 'application/pdf' });
    expect(contract.tags).to.deep.equal({ institution: 'harbour' });
    expect(contract.key).to.match(/^u1\//);
    expect(await f.uploads.findByKey(contract.key)).to.include({ userId: 'u1', declaredSize: CONTRACT.bytes.length });
    const chunk = f.index.all().find((c) => c.text.includes('Notice is three months'))!;
    expect(chunk).to.include({ filename: 'contract.pdf', page: 2, jobId: contract.id });
    expect(f.index.all().some((c) => c.filename === 'receipt.jpg' && c.text.includes('620 euros'))).to.equal(true);
  });

  it('a run of the mail’s job made again (resumed, retried) makes no attachment twice', async () => {
    const f = mailFixture();
    const { session, job } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    await f.drain();
    const keys = f.blobs.keys();
    // As if the run had died after making the attachments (the receipt's not yet queued), before the mail completed.
    await f.jobs.update(job.id, { status: 'processing', stage: 'indexing' });
    await f.jobs.update(attachmentJobId(job.id, 1), { status: 'queued' });
    await f.docChat.runIngestion.execute(job.id);
    expect(f.queued).to.deep.equal([attachmentJobId(job.id, 1)]);
    await f.drain();
    expect(await f.jobs.findById(job.id)).to.include({ status: 'completed' });
    expect((await f.jobs.listBySession(session.id)).map((j) => j.filename).sort()).to.deep.equal(['contract.pdf', 'mooring.eml', 'receipt.jpg']);
    expect(f.blobs.keys()).to.deep.equal(keys);
    expect(f.queued).to.deep.equal([]);
  });

  it('one of a type the deployment does not take is named in the mail only; one past the quota fails saying so', async () => {
    const zip = { filename: 'photos.zip', contentType: 'application/zip', bytes: bytes('PK') };
    const png = { filename: 'scan.png', contentType: 'application/octet-stream', bytes: bytes('not taken: PNG is not turned on') };
    const big = { filename: 'annex.pdf', contentType: 'application/pdf', bytes: bytes('x'.repeat(4000)) };
    const f = mailFixture({ uploadLimits: { maxPendingUploads: 20, storageQuotaBytes: 3000 } }, [zip, png, CONTRACT, big]);
    const { session } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    await f.drain();
    const jobs = await f.jobs.listBySession(session.id);
    expect(jobs.map((j) => j.filename).sort()).to.deep.equal(['annex.pdf', 'contract.pdf', 'mooring.eml']);
    expect(jobs.find((j) => j.filename === 'contract.pdf')).to.include({ status: 'completed' });
    const annex = jobs.find((j) => j.filename === 'annex.pdf')!;
    expect(annex.status).to.equal('failed');
    expect(annex.error).to.match(/^Storage quota exceeded: your files take \d+ bytes and this attachment would pass the limit of 3000 bytes/);
    expect(f.blobs.keys().some((k) => k.endsWith('annex.pdf'))).to.equal(false);
  });

  it('a PNG attachment is taken where the deployment takes PNG (its type from its name when the mail does not say)', async () => {
    const png = { filename: 'scan.png', contentType: 'application/octet-stream', bytes: bytes('png') };
    const f = mailFixture({ acceptedTypes: new AcceptedTypes(['image/png']) }, [png]);
    const { session } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    await f.drain();
    // The fake reader reads no PNG: what counts is that the attachment got its job, typed by its name.
    expect((await f.jobs.listBySession(session.id)).find((j) => j.filename === 'scan.png')).to.include({ contentType: 'image/png', status: 'failed' });
  });

  it('takes at most maxPerMail attachments of a mail, and follows mails attached to mails only maxDepth deep', async () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ filename: `part-${i + 1}.pdf`, contentType: 'application/pdf', bytes: bytes(`Part ${i + 1} of the file.`) }));
    const f = mailFixture({ mailAttachments: { maxPerMail: 3 } }, many);
    const { session } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    await f.drain();
    expect((await f.jobs.listBySession(session.id)).map((j) => j.filename).sort()).to.deep.equal(['mooring.eml', 'part-1.pdf', 'part-2.pdf', 'part-3.pdf']);
    expect(f.logger.lines.some((l) => l.message === 'attachments past the limit not ingested')).to.equal(true);

    // Every "mail" has a mail attached (its text differs by level): two levels are followed, no more.
    const g = coreFixture({ mailAttachments: { maxDepth: 2 } });
    g.reader.attachmentsOf = (text) => [{ filename: `inner-${text.length}.pdf`, contentType: 'application/pdf', bytes: bytes(`${text} and more`) }];
    const nested = await g.sessionWithUpload('u1', 'A mail with a mail attached.', 'outer.eml');
    await g.drain();
    const chain = await g.jobs.listBySession(nested.session.id);
    expect(chain).to.have.length(3);
    expect(chain.every((j) => j.status === 'completed')).to.equal(true);
  });

  it('deleting the session takes the attachments and their files; deleting one attachment leaves the mail', async () => {
    const f = mailFixture();
    const { session, job } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    await f.drain();
    const contract = attachmentJobId(job.id, 0);
    await f.docChat.deleteDocument.execute({ userId: 'u1', sessionId: session.id, ingestId: contract });
    expect((await f.jobs.listBySession(session.id)).map((j) => j.filename).sort()).to.deep.equal(['mooring.eml', 'receipt.jpg']);
    expect(f.index.all().some((c) => c.jobId === contract)).to.equal(false);
    expect(f.blobs.keys()).to.have.length(2);
    await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    expect(f.blobs.keys()).to.deep.equal([]);
    expect(await f.jobs.listBySession(session.id)).to.deep.equal([]);
  });

  it('an attachment made while the session is being deleted goes again, with its file', async () => {
    const f = mailFixture();
    const { session } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    const write = f.blobs.write.bind(f.blobs);
    // The deletion lists the session's jobs before the first attachment's job exists, and runs to its end.
    f.blobs.write = async (...args) => {
      f.blobs.write = write;
      await f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
      return write(...args);
    };
    await f.drain();
    expect(f.blobs.keys()).to.deep.equal([]);
    expect(await f.jobs.listBySession(session.id)).to.deep.equal([]);
    expect(f.queued).to.deep.equal([]);
  });

  it('a mail whose job is cancelled while it is read makes no attachment', async () => {
    const f = mailFixture();
    const { session } = await f.sessionWithUpload('u1', MAIL, 'mooring.eml');
    f.reader.beforeAnswer = async () => f.docChat.deleteSession.execute({ userId: 'u1', sessionId: session.id });
    await f.drain();
    expect(f.blobs.keys()).to.deep.equal([]);
    expect(await f.jobs.listBySession(session.id)).to.deep.equal([]);
  });
});
