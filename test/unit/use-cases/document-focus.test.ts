import { expect } from 'chai';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { Chunk } from '../../../core/domain/model.js';
import type { QueryPlanner } from '../../../core/ports/query-planner.js';
import type { DocumentTermsQuery, IndexQuery, LeadingChunksQuery } from '../../../core/ports/vector-index.js';
import { RetrieveAndAnswer } from '../../../core/use-cases/retrieve-and-answer.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';

/** Records what the ask flow asks of the index. */
class RecordingIndex extends InMemoryVectorIndex {
  readonly searches: IndexQuery[] = [];
  readonly counted: DocumentTermsQuery[] = [];
  readonly openings: LeadingChunksQuery[] = [];

  override async search(query: IndexQuery) {
    this.searches.push(query);
    return super.search(query);
  }

  override async leadingChunks(query: LeadingChunksQuery) {
    this.openings.push(query);
    return super.leadingChunks(query);
  }

  override get documentTerms() {
    const count = super.documentTerms!;
    return async (query: DocumentTermsQuery) => (this.counted.push(query), count(query));
  }
}

const chunk = (jobId: string, ordinal: number, text: string): Chunk => ({
  id: `${jobId}:${ordinal}`, sessionId: 's', jobId, filename: `${jobId}.pdf`, page: ordinal + 1, ordinal, text, tags: {},
});

/**
 * Globex's report: 60 chunks on dividends paid, each as good a match for the question's other words as Acme's one.
 * Acme's report names Acme in every chunk but the one with its dividend. Added first, Globex's chunks fill the
 * index's first 50 hits for "dividends paid" (ties keep the order of adding).
 */
async function twoReports(index: InMemoryVectorIndex) {
  await index.add(Array.from({ length: 60 }, (_, i) => chunk('globex', i, `Dividends paid per share were ${i + 1} cents in year ${i + 1}.`)));
  await index.add([
    ...Array.from({ length: 20 }, (_, i) => chunk('acme', i, `Acme opened store number ${i + 1} in its home region.`)),
    chunk('acme', 20, 'Dividends paid were 2 dollars a share.'),
  ]);
}

const question = (text: string, visibleJobIds: string[]) => ({ userId: 'u', sessionId: 's', question: text, history: [], filters: [], visibleJobIds });

describe('RetrieveAndAnswer with several documents: the documents a question names', () => {
  it('takes a document named only by its file name for the one the question is about', async () => {
    // The loan's 60 chunks, added first, fill the usual search's hits for "pay": the lease's one is found only on its own.
    const index = new RecordingIndex();
    await index.add(Array.from({ length: 60 }, (_, i) => chunk('loan', i, `In month ${i + 1} the borrower must pay 300 dollars.`)));
    await index.add([chunk('lease', 0, 'The tenant must pay 900 dollars a month.')]);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    const filenames = { loan: 'car-loan.pdf', lease: 'flat-lease.pdf' };
    const { packed } = await retrieval.retrieve({ ...question('How much do I pay for the lease?', ['loan', 'lease']), filenames });
    expect(index.searches.map((s) => s.jobIds)).to.deep.equal([undefined, ['lease']]);
    expect(packed.passages[0].text).to.equal('The tenant must pay 900 dollars a month.');
    index.searches.length = 0;
    const { packed: unnamed } = await retrieval.retrieve(question('How much do I pay for the lease?', ['loan', 'lease']));
    expect(index.searches.map((s) => s.jobIds), 'without file names: the words alone name neither').to.deep.equal([undefined]);
    expect(unnamed.passages.map((p) => p.filename)).to.not.include('lease.pdf');
  });

  it('leaves a file-name word to the documents’ text when some text holds it', async () => {
    const index = new RecordingIndex();
    await index.add(Array.from({ length: 60 }, (_, i) => chunk('loan', i, `In month ${i + 1} the borrower must pay 300 dollars for the lease of the car.`)));
    await index.add([chunk('lease', 0, 'The tenant must pay 900 dollars a month.')]);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    await retrieval.retrieve({ ...question('How much do I pay for the lease?', ['loan', 'lease']), filenames: { loan: 'car-loan.pdf', lease: 'flat-lease.pdf' } });
    expect(index.counted.map((c) => c.text), 'the word counted in the text on its own').to.deep.equal(['How much do I pay for the lease?', 'lease']);
    expect(index.searches.map((s) => s.jobIds), 'the loan’s text says lease: the words point to the loan').to.deep.equal([undefined, ['loan']]);
  });

  it('finds the named document’s passage that other documents crowd out of the usual search, and ranks it first', async () => {
    const index = new RecordingIndex();
    await twoReports(index);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    const { packed } = await retrieval.retrieve(question('What dividends did Acme pay?', ['globex', 'acme']));
    expect(packed.passages[0].text).to.equal('Dividends paid were 2 dollars a share.');
    expect(index.counted).to.have.length(1);
    expect(index.searches.map((s) => s.jobIds)).to.deep.equal([undefined, ['acme']]);

    // Without the name, the question's words point to the report that is all about dividends.
    index.searches.length = 0;
    const { packed: unnamed } = await retrieval.retrieve(question('What dividends were paid?', ['globex', 'acme']));
    expect(unnamed.passages[0].filename).to.equal('globex.pdf');
    expect(index.searches.map((s) => s.jobIds)).to.deep.equal([undefined, ['globex']]);
  });

  it('counts nothing with one citable document', async () => {
    const index = new RecordingIndex();
    await twoReports(index);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    const { packed } = await retrieval.retrieve(question('What dividends did Acme pay?', ['globex']));
    expect(index.counted, 'no prior with one document').to.have.length(0);
    expect(index.searches.every((s) => s.jobIds === undefined), 'no search of named documents').to.equal(true);
    expect(packed.passages.every((p) => p.filename === 'globex.pdf')).to.equal(true);
  });

  it('gives a planner’s pinned searches the named documents only', async () => {
    const index = new RecordingIndex();
    await twoReports(index);
    const dividends: QueryPlanner = {
      name: 'dividends',
      lexicalQuery: (text) => text,
      pinnedSearches: () => [{ text: 'dividends paid', limit: 5, holding: (hits) => hits }],
    };
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer(), planners: [dividends] });
    const { packed } = await retrieval.retrieve(question('How much did Acme pay?', ['globex', 'acme']));
    const pinned = index.searches.find((s) => s.text === 'dividends paid');
    expect(pinned?.jobIds).to.deep.equal(['acme']);
    expect(packed.passages[0].text).to.equal('Dividends paid were 2 dollars a share.');
  });

  it('runs a pinned search asked for only within named documents when the question names some, and not otherwise', async () => {
    const index = new RecordingIndex();
    await twoReports(index);
    const totals: QueryPlanner = {
      name: 'totals',
      lexicalQuery: (text) => text,
      pinnedSearches: () => [{ text: 'dividends paid', limit: 5, focusedOnly: true, holding: (hits) => hits }],
    };
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer(), planners: [totals] });
    await retrieval.retrieve(question('How much did Acme pay?', ['globex', 'acme']));
    expect(index.searches.find((s) => s.text === 'dividends paid')?.jobIds).to.deep.equal(['acme']);
    index.searches.length = 0;
    await retrieval.retrieve(question('How much was paid?', ['globex']));
    expect(index.searches.map((s) => s.text), 'no document named: not searched').to.not.include('dividends paid');
  });

  it('brings the opening of a document named by its file name whose text holds none of the question’s words', async () => {
    // A photographed receipt whose OCR misread the shop: only its file name says lidl, and nothing in it says buy.
    const index = new RecordingIndex();
    await index.add(Array.from({ length: 30 }, (_, i) => chunk('guide', i, `A willing buyer pays what a seller asks in case ${i + 1}.`)));
    await index.add([chunk('receipt', 0, 'LDL Paderborn\nEmmentaler 5,18 A\nzu zahlen 7,16'), chunk('receipt', 1, 'Vielen Dank')]);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    const filenames = { guide: 'tax-guide.pdf', receipt: 'receipt_lidl_0203.jpg' };
    const { packed } = await retrieval.retrieve({ ...question('What did I buy at Lidl?', ['guide', 'receipt']), filenames });
    expect(index.searches.map((s) => s.jobIds), 'the focused search finds nothing of it').to.deep.equal([undefined, ['receipt']]);
    expect(packed.passages[0].text, 'its opening leads').to.equal('LDL Paderborn\nEmmentaler 5,18 A\nzu zahlen 7,16');
    expect(packed.passages.map((p) => p.text)).to.not.include('Vielen Dank');
    expect(index.openings.map((q) => q.jobIds), 'only its opening is read, not every document’s').to.deep.equal([['receipt']]);
    const { packed: unnamed } = await retrieval.retrieve(question('What did I buy at Lidl?', ['guide', 'receipt']));
    expect(unnamed.passages.map((p) => p.filename), 'without file names nothing names it').to.not.include('receipt.pdf');
  });

  it('pins the opening chunks of the documents a question names when a planner says it asks about them whole', async () => {
    // A receipt's item lines hold none of the question's words: only its total line's passage would be found.
    const index = new RecordingIndex();
    await index.add(Array.from({ length: 30 }, (_, i) => chunk('guide', i, `A willing buyer pays what a seller asks in case ${i + 1}.`)));
    await index.add([chunk('receipt', 0, 'ALDI Paderborn\nBIO HONIG 3,29 C'), chunk('receipt', 1, 'FRISCHKASE 0,99 C'), chunk('receipt', 2, 'ZU ZAHLEN 24,23'), chunk('receipt', 3, 'Vielen Dank')]);
    const whole = (chunks: number): QueryPlanner => ({ name: 'whole', lexicalQuery: (text) => text, pinnedSearches: () => [], wholeDocuments: () => chunks });
    const filenames = { guide: 'tax-guide.pdf', receipt: 'receipt_aldi_0203.jpg' };
    const ask = (planner: QueryPlanner, visible = ['guide', 'receipt']) =>
      new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer(), planners: [planner] }).retrieve({ ...question('What did I buy at Aldi?', visible), filenames });
    const { packed } = await ask(whole(3));
    expect(packed.passages.slice(0, 3).map((p) => p.text)).to.deep.equal(['ALDI Paderborn\nBIO HONIG 3,29 C', 'FRISCHKASE 0,99 C', 'ZU ZAHLEN 24,23']);
    expect(index.openings.at(-1)).to.include({ perJob: 3 }).and.to.have.deep.property('jobIds', ['receipt']);
    index.openings.length = 0;
    const { packed: none } = await ask(whole(0));
    expect(none.passages.map((p) => p.text)).to.not.include('FRISCHKASE 0,99 C');
    expect(index.openings, 'its words found it: no opening read').to.deep.equal([]);
    index.openings.length = 0;
    await ask(whole(3), ['receipt']);
    expect(index.openings, 'one document: nothing is named among others, nothing pinned').to.deep.equal([]);
  });

  it('pins the first hit of each document when a planner’s search asks for one per document', async () => {
    const index = new RecordingIndex();
    await twoReports(index);
    await index.add([chunk('initech', 0, 'Dividends paid were 5 cents a share.')]);
    const perDocument = (n?: number): QueryPlanner => ({
      name: 'each',
      lexicalQuery: (text) => text,
      pinnedSearches: () => [{ text: 'dividends paid share', limit: 100, perDocument: n, holding: (hits) => hits }],
    });
    const ask = async (n?: number) => {
      const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer(), planners: [perDocument(n)] });
      return (await retrieval.retrieve(question('Tell me everything.', ['globex', 'acme', 'initech']))).packed.passages;
    };
    const pinned = (passages: { text: string }[]) => passages.filter((p) => /Dividends paid/.test(p.text)).map((p) => p.text);
    expect(pinned(await ask(3)).sort()).to.deep.equal(['Dividends paid per share were 1 cents in year 1.', 'Dividends paid were 2 dollars a share.', 'Dividends paid were 5 cents a share.']);
    expect(pinned(await ask()), 'by default the first hit only').to.have.length(1);
  });

  it('asks a follow-up ("And when does it take effect?") of the documents the answer before it quoted', async () => {
    // Both say "take effect", the copyright summary on two pages of its twenty; the notice was asked about before.
    const index = new RecordingIndex();
    await index.add(Array.from({ length: 20 }, (_, i) => chunk('dmca', i, i % 10 === 3
      ? `The rules of section ${i + 1} would take effect 2 years after their enactment.`
      : `Section ${i + 1} of the act limits the liability of online service providers.`)));
    await index.add([
      chunk('notice', 0, 'The FAA proposes to supersede an airworthiness directive for Boeing airplanes.'),
      chunk('notice', 1, 'This directive would take effect 35 days after its publication.'),
    ]);
    const retrieval = new RetrieveAndAnswer({ indexes: [index], llm: new ExtractiveAnswerer() });
    const history = [
      { role: 'user' as const, content: 'What does the FAA notice propose?' },
      { role: 'assistant' as const, content: '“The FAA proposes to supersede an airworthiness directive for Boeing airplanes.” [1]', cited: ['notice'] },
    ];
    const followUp = await retrieval.retrieve({ ...question('And when does it take effect?', ['dmca', 'notice']), history });
    expect(followUp.packed.passages[0].text).to.equal('This directive would take effect 35 days after its publication.');
    // Found by the usual search and by the notice's own, it keeps the usual one's score (the fake, like PostgreSQL,
    // weighs words over the searched documents only: its own search scores it lower).
    const usual = (await index.search({ sessionId: 's', text: 'when does it take effect?', limit: 50 })).find((hit) => hit.chunk.id === 'notice:1');
    expect(followUp.packed.passages[0].score).to.equal(usual?.score);
    const own = await retrieval.retrieve({ ...question('When does the section take effect?', ['dmca', 'notice']), history });
    expect(own.packed.passages[0].filename, 'a question of its own is not held to the notice').to.equal('dmca.pdf');
  });
});
