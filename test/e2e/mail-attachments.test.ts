import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.js';
import { pagedTextPdf, textPng } from '../support/generated-documents.js';
import { mailWithAttachments } from '../support/office-documents.js';
import { CONFORMANCE_STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const BODY = 'Hello, the mooring contract and the parking permit are attached. The office closes for the summer on the fourth of August.';

/** A mail made here: a two-page PDF, a photo of a page (PNG, OCR'd) and an archive no deployment takes. */
async function mooringMail(): Promise<Uint8Array> {
  const contract = await pagedTextPdf([
    ['Mooring contract between the harbour and the skipper.', 'The berth is number 14 on the east pier.'],
    ['Termination.', 'Either party may end the contract with ninety days notice in writing.'],
  ]);
  const permit = textPng(['Parking permit', 'valid until the end of October'], { width: 900, height: 300, fontSize: 48 });
  return mailWithAttachments(BODY, [
    { filename: 'contract.pdf', contentType: 'application/pdf', bytes: contract },
    { filename: 'permit.png', contentType: 'image/png', bytes: permit },
    { filename: 'photos.zip', contentType: 'application/zip', bytes: new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]) },
  ]);
}

// An e-mail's attachments as documents of their own (issue 51), on every stack: SQLite + local files, SQLite +
// Chroma + S3, and PostgreSQL + Chroma + S3 where PostgreSQL runs.
for (const makeStack of CONFORMANCE_STACKS) {
  const stack = makeStack();

  describe(`an e-mail's attachments over HTTP (${stack.name} stack)`, function () {
    this.timeout(180_000);
    let t: TestService;
    let alice: ApiClient;
    let sessionId: string;
    let mailId: string;
    let documents: any[];
    const byName = (name: string) => documents.find((d) => d.filename === name);

    before(async () => {
      t = await stack.start({ ACCEPTED_TYPES: 'all' });
      alice = await t.as('alice');
      sessionId = await alice.createSession('harbour mail');
      mailId = (await alice.uploadAndIngest(sessionId, 'mooring.eml', await mooringMail(), 'message/rfc822', { institution: 'harbour' })).jobId;
      expect(await alice.waitForJob(mailId)).to.include({ status: 'completed', pages: 1 });
      documents = await alice.waitForDocuments(sessionId, 3);
    });
    after(() => stack.close());

    it('lists each readable attachment as a document of the session, made by the mail; the archive is only named', () => {
      expect(documents.map((d) => d.filename).sort()).to.deep.equal(['contract.pdf', 'mooring.eml', 'permit.png']);
      expect(byName('contract.pdf')).to.include({ status: 'completed', pages: 2, attachedTo: mailId, session_id: sessionId });
      expect(byName('permit.png')).to.include({ status: 'completed', pages: 1, attachedTo: mailId });
      expect(byName('contract.pdf').tags).to.deep.equal({ institution: 'harbour' });
      expect(byName('mooring.eml')).to.not.have.property('attachedTo');
    });

    it('cites a PDF attachment by its own name and page, a photo attachment by its OCR’d text, the mail by its body', async () => {
      const asked = async (message: string) => {
        const res = await alice.post('/api/v1/chat/completions', { sessionId, message });
        expect(res.status, res.text).to.equal(200);
        return res.body.sources.map((s: { filename: string; page: number }) => `${s.filename}, page ${s.page}`);
      };
      expect(await asked('How much notice ends the mooring contract?')).to.include('contract.pdf, page 2');
      expect(await asked('Until when is the parking permit valid?')).to.include('permit.png, page 1');
      expect(await asked('When does the office close for the summer?')).to.include('mooring.eml, page 1');
    });

    it('names every attachment in the mail’s own document', async () => {
      const res = await alice.post('/api/v1/chat/completions', { sessionId, message: 'Was photos.zip attached to the mail?' });
      expect(res.status, res.text).to.equal(200);
      const excerpts = res.body.sources.filter((s: { filename: string }) => s.filename === 'mooring.eml').map((s: { excerpt: string }) => s.excerpt).join(' ');
      expect(excerpts).to.include('photos.zip');
    });

    it('deletes an attachment on its own (its file goes, the mail stays), and the session with the rest', async () => {
      const contract = byName('contract.pdf');
      const keysBefore = await stack.storedObjectKeys();
      expect(keysBefore.some((k) => k.endsWith('contract.pdf'))).to.equal(true);
      expect((await alice.delete(`/api/v1/session/${sessionId}/documents/${contract.id}`)).status).to.equal(204);
      const left = (await alice.get(`/api/v1/session/${sessionId}/documents`)).body.data.map((d: { filename: string }) => d.filename);
      expect(left.sort()).to.deep.equal(['mooring.eml', 'permit.png']);
      expect((await stack.storedObjectKeys()).some((k) => k.endsWith('contract.pdf'))).to.equal(false);
      expect((await alice.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
      expect((await stack.storedObjectKeys()).filter((k) => /mooring\.eml|permit\.png/.test(k))).to.deep.equal([]);
    });
  });
}
