import { expect } from 'chai';
import { NotFoundError, UpstreamUnavailableError, ValidationError } from '../../../core/domain/errors.js';
import type { Answer, AnswerRequest, Llm } from '../../../core/ports/llm.js';
import { HashingEmbedder } from '../../fakes/hashing-embedder.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

class RecordingLlm implements Llm {
  requests: AnswerRequest[] = [];
  rewrites: string[] = [];
  failWith: Error | null = null;
  async answer(request: AnswerRequest): Promise<Answer> {
    this.requests.push(request);
    if (this.failWith) throw this.failWith;
    const first = request.contexts[0];
    return first ? { text: `From ${first.filename}: ${first.text.slice(0, 40)}`, usedRefs: [first.ref] } : { text: 'not found', usedRefs: [] };
  }
  async rewriteQuestion(question: string): Promise<string> {
    this.rewrites.push(question);
    return `standalone: ${question}`;
  }
}

describe('AskQuestion', () => {
  it('answers from the session’s documents with sources, and stores both messages', async () => {
    const f = coreFixture();
    const { session, job } = await f.sessionWithUpload('u1', 'Paris is the capital of France. Berlin is the capital of Germany.', 'capitals.pdf');
    await f.drain();
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What is the capital of Germany?' });
    expect(result.answer).to.include('Berlin is the capital of Germany');
    expect(result.answer).to.include('capitals.pdf');
    expect(result.sources[0]).to.include({ filename: 'capitals.pdf', page: 1, ingestId: job.id });
    expect(f.chats.rows.map((m) => [m.role, m.content])).to.deep.equal([
      ['user', 'What is the capital of Germany?'],
      ['assistant', result.answer],
    ]);
    expect(f.chats.rows[1].createdAt > f.chats.rows[0].createdAt).to.equal(true);
  });

  it('restricts retrieval to the institution and to the session', async () => {
    const f = coreFixture();
    const a = await f.sessionWithUpload('u1', 'The refund policy of Acme allows returns within 30 days.', 'acme.pdf', { institution: 'acme' });
    const globexText = 'The refund policy of Globex allows returns within 14 days.';
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'globex.pdf', contentType: 'application/pdf', contentSize: globexText.length });
    f.blobs.put(upload.key, globexText, 'application/pdf');
    await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: a.session.id, key: upload.key, filename: 'globex.pdf', tags: { institution: 'globex' } });
    const elsewhere = await f.sessionWithUpload('u1', 'The refund policy of Initech allows returns within 7 days.', 'initech.pdf');
    await f.drain();
    const globex = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: a.session.id, message: 'What is the refund policy?', institution: 'globex' });
    expect(globex.sources.map((s) => s.filename)).to.deep.equal(['globex.pdf']);
    const all = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: a.session.id, message: 'What is the refund policy?' });
    expect(all.sources.map((s) => s.filename).sort()).to.deep.equal(['acme.pdf', 'globex.pdf']);
    expect(elsewhere.session.id).to.not.equal(a.session.id);
  });

  it('says plainly when nothing relevant is found, and returns no sources', async () => {
    const f = coreFixture();
    const { session } = await f.sessionWithUpload('u1', 'Bananas are yellow fruit rich in potassium.');
    await f.drain();
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'Who won the 1998 football world cup?' });
    expect(result.answer).to.equal('I could not find this in your documents.');
    expect(result.sources).to.deep.equal([]);
  });

  it('rewrites a follow-up from the history before retrieval, and gives the history to the answerer', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', 'The Eiffel Tower is 330 metres tall.');
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'Tell me about the Eiffel Tower' });
    expect(llm.rewrites).to.deep.equal([]); // no history yet: nothing to rewrite
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How tall is it?' });
    expect(llm.rewrites).to.deep.equal(['How tall is it?']);
    expect(llm.requests[1].history.map((h) => h.role)).to.deep.equal(['user', 'assistant']);
    expect(llm.requests[1].question).to.equal('How tall is it?');
  });

  it('fuses lexical and dense results when an embedder is configured', async () => {
    const lexical = new InMemoryVectorIndex({ kind: 'lexical' });
    const dense = new InMemoryVectorIndex({ kind: 'dense' });
    const f = coreFixture({ indexes: [lexical, dense], embedder: new HashingEmbedder() });
    const { session } = await f.sessionWithUpload('u1', 'Photosynthesis converts light into chemical energy in plants.');
    await f.drain();
    expect(await dense.count({ sessionId: session.id })).to.equal(1);
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How do plants convert light?' });
    expect(result.sources).to.have.length(1);
  });

  it('stores nothing when the answerer fails, and refuses foreign sessions and empty questions', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', 'Some text about things.');
    await f.drain();
    llm.failWith = new UpstreamUnavailableError('chat model', 'down');
    expect(await rejection(f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'things?' }))).to.be.instanceOf(UpstreamUnavailableError);
    expect(f.chats.rows).to.deep.equal([]);
    expect(await rejection(f.docChat.askQuestion.execute({ userId: 'u2', sessionId: session.id, message: 'things?' }))).to.be.instanceOf(NotFoundError);
    expect(await rejection(f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: '   ' }))).to.be.instanceOf(ValidationError);
    expect(f.chats.rows).to.deep.equal([]);
  });
});

describe('AskQuestion: overview questions', () => {
  const lake = 'Lake Baikal is the deepest lake on Earth and holds a fifth of its fresh surface water. The lake lies in Siberia. ' +
    'Its water is so clear that the lake bottom can be seen at a depth of forty metres in places.';
  const fees = 'The bank charges a monthly maintenance fee of twelve dollars on every checking account. ' +
    'The maintenance fee is waived when the checking account balance stays above a threshold.';

  it('answers "What is this document about?" with the documents’ opening sentences and their sources, not "not found"', async () => {
    const f = coreFixture();
    const a = await f.sessionWithUpload('u1', lake, 'baikal.pdf', { topic: 'nature' });
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'fees.pdf', contentType: 'application/pdf', contentSize: fees.length });
    f.blobs.put(upload.key, fees, 'application/pdf');
    const b = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: a.session.id, key: upload.key, filename: 'fees.pdf', tags: { topic: 'money' } });
    await f.drain();

    const all = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: a.session.id, message: 'What is this document about?' });
    expect(all.answer).to.include('Lake Baikal is the deepest lake on Earth');
    expect(all.answer).to.include('The bank charges a monthly maintenance fee');
    expect(all.sources.map((s) => s.ingestId).sort()).to.deep.equal([a.job.id, b.id].sort());

    // Filters narrow the overview to the documents they select.
    const filtered = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: a.session.id, message: 'Summarize the report', filters: { topic: 'money' } });
    expect(filtered.answer).to.include('maintenance fee');
    expect(filtered.answer).to.not.include('Baikal');
    expect(filtered.sources.map((s) => s.ingestId)).to.deep.equal([b.id]);
  });

  it('gives the overview of the documents a question names by their file names, and leaves a topic to retrieval', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const a = await f.sessionWithUpload('u1', lake, 'BAIKAL_2021_Survey.pdf');
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: 'bank-fees-10-K.pdf', contentType: 'application/pdf', contentSize: fees.length });
    f.blobs.put(upload.key, fees, 'application/pdf');
    const b = await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: a.session.id, key: upload.key, filename: 'bank-fees-10-K.pdf', tags: {} });
    await f.drain();
    const ask = async (message: string) => {
      await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: a.session.id, message });
      return llm.requests.at(-1)!;
    };
    for (const [message, job] of [['Summarize the Baikal survey', a.job.id], ["What is the bank's 10-K about?", b.id], ['Give me an overview of the 2021 Baikal report', a.job.id]] as const) {
      const request = await ask(message);
      expect(request.overview, message).to.equal(true);
      expect(request.contexts.map((c) => c.filename), message).to.deep.equal([job === a.job.id ? 'BAIKAL_2021_Survey.pdf' : 'bank-fees-10-K.pdf']);
    }
    // A word no file name holds is a subject of its own: searched for, as before.
    expect((await ask('Summarize the maintenance fee')).overview).to.equal(undefined);
    expect((await ask('What are the key points about Siberia?')).overview).to.equal(undefined);
  });

  it('gives an overview of the first ten of more documents, reading only theirs, and says how many there are', async () => {
    const index = new (class extends InMemoryVectorIndex {
      read: (readonly string[] | undefined)[] = [];
      override async leadingChunks(query: Parameters<InMemoryVectorIndex['leadingChunks']>[0]) {
        this.read.push(query.jobIds);
        return super.leadingChunks(query);
      }
    })();
    const f = coreFixture({ indexes: [index] });
    const { session, job } = await f.sessionWithUpload('u1', 'Report number 1 says the harbour opened in spring with twelve ferries.', 'report-01.pdf');
    const jobs = [job];
    for (let i = 2; i <= 12; i++) {
      const text = `Report number ${i} says the harbour opened in spring with ${i} ferries.`;
      const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: `report-${i}.pdf`, contentType: 'application/pdf', contentSize: text.length });
      f.blobs.put(upload.key, text, 'application/pdf');
      jobs.push(await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: `report-${i}.pdf`, tags: {} }));
    }
    await f.drain();
    const { answer, sources } = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What documents do I have?' });
    expect(index.read, 'the first ten documents’ openings only').to.deep.equal([jobs.slice(0, 10).map((j) => j.id)]);
    expect(new Set(sources.map((s) => s.ingestId))).to.deep.equal(new Set(jobs.slice(0, 10).map((j) => j.id)));
    expect(answer.split('\n\n').at(-1)).to.equal('(The first 10 of 12 documents. Name one, by a word of its file name, to ask about it.)');
    const two = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What documents do I have?', documents: [jobs[0].id, jobs[11].id] });
    expect(two.answer, 'all the documents asked of').to.not.include('(The first');
    // Streamed, the note is the last piece, and what is stored.
    let streamed = '';
    for await (const event of f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'What documents do I have?' }, new AbortController().signal))
      if (event.type === 'delta') streamed += event.text;
    expect(streamed).to.equal(answer);
    const history = await f.docChat.getChatHistory.execute({ userId: 'u1', sessionId: session.id, page: 0 });
    expect(history.messages.filter((m) => m.content === answer), 'asked, then streamed').to.have.length(2);
  });

  it('answers a question about the one document’s own table from its opening passages when no search finds a word of it', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', 'Ferry fares consisted of the following:\n2021 2020\nAdults 12 11\nChildren 6 5', 'fares.pdf');
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'Which years does the table show?' });
    expect(llm.requests.at(-1)!.contexts.map((c) => c.filename)).to.deep.equal(['fares.pdf']);
    // Any other question that no search matches stays without passages.
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'Who won the cup final?' });
    expect(llm.requests.at(-1)!.contexts).to.deep.equal([]);
  });

  it('gives a model the opening passages marked as an overview, and leaves other questions to retrieval', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', lake, 'baikal.pdf');
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What are the main points?' });
    expect(llm.requests[0].overview).to.equal(true);
    expect(llm.requests[0].contexts[0].text).to.include('Lake Baikal');
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How clear is the water of the lake?' });
    expect(llm.requests[1].overview).to.equal(undefined);
  });

  it('still says it found nothing when the session has no document', async () => {
    const f = coreFixture();
    const session = await f.docChat.createSession.execute({ userId: 'u1', label: 'empty' });
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What is this document about?' });
    expect(result.answer).to.equal('I could not find this in your documents.');
    expect(result.sources).to.deep.equal([]);
  });
});
