import { expect } from 'chai';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import type { DocumentReader } from '../../../core/ports/document-reader.js';
import { GetPageText, NO_PAGE_TEXT } from '../../../core/use-cases/get-page-text.js';
import { UnitLabelList } from '../../../core/use-cases/unit-labels.js';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/** The fake reader with a label on each page, as a workbook's sheets come from the extraction ('' for none). */
function labellingReader(labels: string[], fake = new FakeDocumentReader()): DocumentReader {
  const labelled = (pages: ExtractedPage[]) => pages.map((p) => ({ ...p, label: labels[p.page - 1] ?? '' }));
  return {
    read: async (request) => labelled(await fake.read({ ...request, onPages: request.onPages && ((pages) => request.onPages!(labelled(pages))) })),
  };
}

const BUDGET = ['Travel costs were 1,200 euros in the first quarter.', 'Office rent rose to 4,800 euros in the third quarter.', 'Notes on the figures.'].join('\f');

async function budgetIngested(labels = ['Sheet Q1', 'Sheet Q3', '']) {
  const f = coreFixture({ reader: labellingReader(labels) });
  const { session, job } = await f.sessionWithUpload('u1', BUDGET, 'budget.xlsx');
  await f.drain();
  return { f, session, job };
}

describe('Unit labels (documents without pages)', () => {
  it('records each page’s unit label with the job, \'\' where a unit has none; a document with pages records none', async () => {
    const { f, job } = await budgetIngested();
    expect(await f.jobs.findById(job.id)).to.deep.include({ status: 'completed', units: ['Sheet Q1', 'Sheet Q3', ''] });
    const pdf = coreFixture();
    const plain = await pdf.sessionWithUpload('u1', BUDGET, 'budget.pdf');
    await pdf.drain();
    expect(await pdf.jobs.findById(plain.job.id)).to.include({ status: 'completed' }).and.not.have.property('units');
  });

  it('names the unit, not the page, in the answer’s "Sources:" line and in the source, streamed and in the history', async () => {
    const { f, session } = await budgetIngested();
    const asked = { userId: 'u1', sessionId: session.id, message: 'What did office rent rise to?' };
    const result = await f.docChat.askQuestion.execute(asked);
    expect(result.answer).to.contain('Sources: [1] budget.xlsx, Sheet Q3').and.not.contain('page 2');
    expect(result.sources[0]).to.include({ filename: 'budget.xlsx', page: 2, unit: 'Sheet Q3', cited: true });
    const events = [];
    for await (const event of f.docChat.askQuestion.stream(asked, new AbortController().signal)) events.push(event);
    const streamed = events.find((e) => e.type === 'sources');
    expect(streamed).to.have.nested.property('sources[0].unit', 'Sheet Q3');
    const history = await f.docChat.getChatHistory.execute({ userId: 'u1', sessionId: session.id, page: 0 });
    const answers = history.messages.filter((m) => m.role === 'assistant');
    expect(answers.map((m) => m.sources?.[0]?.unit)).to.deep.equal(['Sheet Q3', 'Sheet Q3']);
  });

  it('a unit without a label is named by its page; a PDF’s sources carry no unit', async () => {
    const { f, session } = await budgetIngested(['Sheet Q1', '', '']);
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What did office rent rise to?' });
    expect(result.answer).to.contain('Sources: [1] budget.xlsx, page 2');
    expect(result.sources[0]).to.not.have.property('unit');
  });

  it('keeps the labels in a copy from the library and in an identical upload that reuses the chunks', async () => {
    const { f, job } = await budgetIngested();
    const other = await f.docChat.createSession.execute({ userId: 'u1', label: 'other' });
    const documentId = (await f.jobs.findById(job.id))!.sha256!;
    const copy = await f.docChat.addLibraryDocument.execute({ userId: 'u1', sessionId: other.id, documentId });
    expect(await f.jobs.findById(copy.job.id)).to.deep.include({ units: ['Sheet Q1', 'Sheet Q3', ''] });
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'again.xlsx', contentType: 'application/pdf', contentSize: BUDGET.length });
    f.blobs.put(upload.key, BUDGET, 'application/pdf');
    const again = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: job.sessionId, key: upload.key, filename: 'again.xlsx', tags: {} });
    await f.drain();
    expect(await f.jobs.findById(again.id)).to.deep.include({ reusedFrom: job.id, units: ['Sheet Q1', 'Sheet Q3', ''] });
  });

  it('a run going on from a checkpoint keeps the labels the run before it recorded for the pages it does not read again', async () => {
    const slides = Array.from({ length: 16 }, (_, i) => `Slide ${i + 1}`);
    const fake = new FakeDocumentReader();
    const f = coreFixture({ reader: labellingReader(slides, fake), ingestRetry: { checkpointMs: 0 } });
    const { job } = await f.sessionWithUpload('u1', slides.map((s) => `${s} tells of harbour number ${s.length}.`).join('\f'), 'deck.pptx');
    // The first read hands over the first half of the pages, then its extraction process "crashes".
    let reads = 0;
    fake.beforeAnswer = async () => {
      if (++reads === 1) throw new Error('The document extraction worker stopped unexpectedly: killed by SIGKILL');
    };
    await f.drain();
    expect(fake.firstPages).to.deep.equal([1, 9]);
    expect(await f.jobs.findById(job.id)).to.deep.include({ status: 'completed', attempts: 2, units: slides });
  });

  describe('GetPageText', () => {
    it('gives the owner one unit’s label and text, read again from the stored file', async () => {
      const { f, job } = await budgetIngested();
      expect(await f.docChat.getPageText.execute({ userId: 'u1', jobId: job.id, page: 2 })).to.deep.equal({
        label: 'Sheet Q3', text: 'Office rent rose to 4,800 euros in the third quarter.',
      });
      expect(await f.docChat.getPageText.execute({ userId: 'u1', jobId: job.id, page: 3 })).to.deep.include({ label: '' });
    });

    it('reads a document’s units once for several of them, and again once its entry is pushed out', async () => {
      const fake = new FakeDocumentReader();
      const f = coreFixture({ reader: labellingReader(['Sheet Q1', 'Sheet Q3', ''], fake) });
      const { job } = await f.sessionWithUpload('u1', BUDGET, 'budget.xlsx');
      await f.drain();
      const read = fake.calls;
      const texts = new GetPageText({ jobs: f.jobs, blobs: f.blobs, reader: labellingReader(['Sheet Q1', 'Sheet Q3', ''], fake), cacheBytes: 400 });
      await Promise.all([1, 2, 3, 2].map((page) => texts.execute({ userId: 'u1', jobId: job.id, page })));
      expect(fake.calls - read).to.equal(1);
      // Another document fills the 400 bytes: the first is read again when asked for.
      const other = await f.sessionWithUpload('u1', BUDGET.replace('Travel', 'Fuel'), 'other.xlsx');
      await f.drain();
      await texts.execute({ userId: 'u1', jobId: other.job.id, page: 1 });
      await texts.execute({ userId: 'u1', jobId: job.id, page: 1 });
      expect(fake.calls - read).to.equal(4); // +1 ingestion of the other, +1 its units, +1 the first again
    });

    it('hides another user’s job, and says "Page not found" past the last unit or for a file no longer stored', async () => {
      const { f, job } = await budgetIngested();
      const foreign = await rejection(f.docChat.getPageText.execute({ userId: 'u2', jobId: job.id, page: 1 }));
      expect(foreign).to.be.instanceOf(NotFoundError).and.have.property('message', 'Ingest job not found');
      expect(await rejection(f.docChat.getPageText.execute({ userId: 'u1', jobId: 'nope', page: 1 }))).to.have.property('message', 'Ingest job not found');
      expect(await rejection(f.docChat.getPageText.execute({ userId: 'u1', jobId: job.id, page: 4 }))).to.have.property('message', 'Page not found');
      await f.blobs.remove(job.key);
      expect(await rejection(f.docChat.getPageText.execute({ userId: 'u1', jobId: job.id, page: 1 }))).to.have.property('message', 'Page not found');
    });

    it('refuses a document with pages of its own (a PDF, a photo): its page images show them', async () => {
      const f = coreFixture();
      const { job } = await f.sessionWithUpload('u1', BUDGET, 'budget.pdf');
      await f.drain();
      const refused = await rejection(f.docChat.getPageText.execute({ userId: 'u1', jobId: job.id, page: 1 }));
      expect(refused).to.be.instanceOf(NotFoundError).and.have.property('message', NO_PAGE_TEXT);
    });
  });

  describe('UnitLabelList', () => {
    it('keeps an earlier run’s labels, adds those of the pages read, fills holes with \'\' and has none for pages without labels', () => {
      const list = new UnitLabelList(['Slide 1']);
      list.add({ page: 3, text: 'x', method: 'text', label: 'Slide 3' });
      expect(list.upTo(4)).to.deep.equal(['Slide 1', '', 'Slide 3', '']);
      expect(list.upTo(2)).to.deep.equal(['Slide 1', '']);
      // A PDF's pages come without labels: no units. A text file's one unit has an empty label: units all the same.
      const pdf = new UnitLabelList();
      pdf.add({ page: 1, text: 'x', method: 'text' });
      expect(pdf.upTo(1)).to.equal(undefined);
      const text = new UnitLabelList();
      text.add({ page: 1, text: 'x', method: 'text', label: '' });
      expect(text.upTo(1)).to.deep.equal(['']);
    });
  });
});
