import { expect } from 'chai';
import { NotFoundError, UpstreamUnavailableError, ValidationError } from '../../../core/domain/errors.js';
import type { Answer, AnswerRequest, Llm } from '../../../core/ports/llm.js';
import type { AskQuestionEvent } from '../../../core/use-cases/ask-question.js';
import { coreFixture } from '../../support/core-fixture.js';

/** An answerer streaming its first passage word by word; it can fail after some words and records its signals. */
class WordStreamingLlm implements Llm {
  signals: AbortSignal[] = [];
  failAfter?: number;
  async answer(request: AnswerRequest): Promise<Answer> {
    const first = request.contexts[0];
    return first ? { text: first.text, usedRefs: [first.ref] } : { text: 'not found', usedRefs: [] };
  }
  async *answerStream(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
    this.signals.push(signal);
    const answer = await this.answer(request);
    const words = answer.text.match(/\s*\S+/g) ?? [];
    for (const [i, word] of words.entries()) {
      if (i === this.failAfter) throw new UpstreamUnavailableError('ollama', 'the model runner stopped');
      signal.throwIfAborted();
      yield word;
    }
    return answer;
  }
}

async function collect(events: AsyncGenerator<AskQuestionEvent, void, undefined>) {
  const seen: AskQuestionEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error: error as Error };
  }
}

const TEXT = 'The Eiffel Tower is 330 metres tall. It was built for the 1889 World Fair.';

describe('AskQuestion.stream', () => {
  it('yields the answer’s pieces, then the sources, then the ids of the two messages it stored', async () => {
    const llm = new WordStreamingLlm();
    const f = coreFixture({ llm });
    const { session, job } = await f.sessionWithUpload('u1', TEXT, 'tower.pdf');
    await f.drain();
    const { seen, error } = await collect(f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'How tall is the Eiffel Tower?' }, new AbortController().signal));
    expect(error).to.equal(undefined);
    const types = seen.map((e) => e.type);
    expect(types.filter((t) => t === 'delta').length).to.be.greaterThan(5);
    expect(types.slice(-2)).to.deep.equal(['sources', 'done']);
    expect(types.slice(0, -2).every((t) => t === 'delta')).to.equal(true);
    const text = seen.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).to.equal(TEXT);
    const sources = seen.find((e) => e.type === 'sources');
    expect(sources).to.have.nested.property('sources[0].ingestId', job.id);
    const done = seen.at(-1) as Extract<AskQuestionEvent, { userMessageId: string }>;
    expect(f.chats.rows.map((m) => [m.id, m.role, m.content])).to.deep.equal([
      [done.userMessageId, 'user', 'How tall is the Eiffel Tower?'],
      [done.assistantMessageId, 'assistant', TEXT],
    ]);
  });

  it('an answerer without answerStream is sent in sentences', async () => {
    const f = coreFixture({ llm: { answer: async (r) => ({ text: r.contexts[0].text, usedRefs: [r.contexts[0].ref] }) } });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const { seen } = await collect(f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'Eiffel Tower height?' }, new AbortController().signal));
    expect(seen.flatMap((e) => (e.type === 'delta' ? [e.text] : []))).to.deep.equal(['The Eiffel Tower is 330 metres tall. ', 'It was built for the 1889 World Fair.']);
  });

  it('refuses before the first event what execute() refuses: bad input, bad filters, a foreign session', async () => {
    const f = coreFixture({ llm: new WordStreamingLlm() });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const first = (input: { userId: string; message: string; filters?: Record<string, string[]> }) =>
      f.docChat.askQuestion.stream({ sessionId: session.id, ...input }, new AbortController().signal).next().then(() => undefined, (e: unknown) => e);
    expect(await first({ userId: 'u1', message: '  ' })).to.be.instanceOf(ValidationError);
    expect(await first({ userId: 'u1', message: 'tower?', filters: { year: [] } })).to.be.instanceOf(ValidationError);
    expect(await first({ userId: 'u2', message: 'tower?' })).to.be.instanceOf(NotFoundError);
    expect(f.chats.rows).to.deep.equal([]);
  });

  it('a consumer that aborts mid-answer gets no more events, the answerer sees the abort, and nothing is stored', async () => {
    const llm = new WordStreamingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const controller = new AbortController();
    const events = f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'Eiffel Tower?' }, controller.signal);
    expect((await events.next()).value).to.deep.include({ type: 'delta' });
    controller.abort();
    const { seen, error } = await collect(events);
    expect(error).to.be.instanceOf(Error);
    expect(seen).to.deep.equal([]);
    expect(llm.signals[0].aborted).to.equal(true);
    expect(f.chats.rows).to.deep.equal([]);
  });

  it('a consumer that stops pulling (return) closes the answerer’s stream and stores nothing', async () => {
    const f = coreFixture({ llm: new WordStreamingLlm() });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const events = f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'Eiffel Tower?' }, new AbortController().signal);
    await events.next();
    expect(await events.return()).to.deep.equal({ done: true, value: undefined });
    expect(f.chats.rows).to.deep.equal([]);
  });

  it('an answerer that fails mid-answer ends the events with its error after the pieces sent, and stores nothing', async () => {
    const llm = new WordStreamingLlm();
    llm.failAfter = 3;
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', TEXT);
    await f.drain();
    const { seen, error } = await collect(f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: 'Eiffel Tower?' }, new AbortController().signal));
    expect(seen.map((e) => e.type)).to.deep.equal(['delta', 'delta', 'delta']);
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(f.chats.rows).to.deep.equal([]);
  });
});
