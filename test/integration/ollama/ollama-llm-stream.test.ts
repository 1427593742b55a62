import { expect } from 'chai';
import { OllamaLlm, visiblePrefix } from '../../../adapters/ollama/ollama-llm.js';
import { UpstreamUnavailableError } from '../../../core/domain/errors.js';
import type { AnswerRequest } from '../../../core/ports/llm.js';
import { FakeOllamaServer } from '../../support/fake-ollama-server.js';

const REQUEST: AnswerRequest = {
  question: 'How long is the warranty period of the X200 drill?',
  contexts: [{ ref: '1', filename: 'x200.pdf', page: 4, score: 0.9, text: 'The X200 drill comes with a warranty period of 24 months from the date of purchase.' }],
  history: [],
};

/** Drains a stream: its pieces, and the answer or the error it ended with. */
async function drain(stream: AsyncGenerator<string, unknown, undefined>, onPiece?: (piece: string, index: number) => void) {
  const pieces: string[] = [];
  try {
    for (let next = await stream.next(); ; next = await stream.next()) {
      if (next.done) return { pieces, answer: next.value, error: undefined };
      onPiece?.(next.value, pieces.length);
      pieces.push(next.value);
    }
  } catch (error) {
    return { pieces, answer: undefined, error: error as Error };
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition(), what).to.equal(true);
}

describe('OllamaLlm.answerStream against a fake Ollama server (streamed NDJSON)', function () {
  let server: FakeOllamaServer;
  let llm: OllamaLlm;

  before(async () => {
    server = await FakeOllamaServer.start();
    llm = new OllamaLlm({ host: server.url, model: 'llama3.2', timeoutMs: 5_000 });
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  it('asks for a stream and yields the reply token by token, then the answer with its refs', async () => {
    server.replyWith('The warranty lasts 24 months from purchase. [1]');
    const { pieces, answer, error } = await drain(llm.answerStream(REQUEST, new AbortController().signal));
    expect(error).to.equal(undefined);
    expect(server.chatRequests()[0].stream).to.equal(true);
    expect(pieces.length).to.be.greaterThan(3);
    expect(pieces.join('')).to.equal('The warranty lasts 24 months from purchase. [1]');
    expect(answer).to.deep.equal({ text: 'The warranty lasts 24 months from purchase. [1]', usedRefs: ['1'], markers: { 1: 1 } });
  });

  it('holds back a thinking block and surrounding whitespace: the pieces joined are the final text', async () => {
    server.replyWith('<think>\nThe user asks about the warranty.\n</think>\n\n 24 months. [1]\n');
    const { pieces, answer } = await drain(llm.answerStream(REQUEST, new AbortController().signal));
    expect(pieces.join('')).to.equal('24 months. [1]');
    expect(pieces.some((p) => /think/.test(p))).to.equal(false);
    expect(answer).to.deep.include({ text: '24 months. [1]' });
    expect(visiblePrefix('Answer <thi')).to.equal('Answer');
    expect(visiblePrefix('<think>still thinking')).to.equal('');
  });

  it('aborting the signal mid-answer cancels the HTTP request to Ollama and ends the stream with an error', async () => {
    server.streamTokensEvery(100).replyWith('one two three four five six seven eight nine ten eleven twelve [1]');
    const controller = new AbortController();
    const { pieces, error } = await drain(llm.answerStream(REQUEST, controller.signal), (_, i) => i === 1 && controller.abort());
    expect(pieces.length).to.equal(2);
    expect(error).to.be.instanceOf(Error);
    await until(() => server.abortedStreams === 1, 'the fake server saw its streamed reply abandoned');
  });

  it('an error line in the middle of the stream becomes UpstreamUnavailableError after the pieces already sent', async () => {
    server.failStreamAfter(3, { error: 'model runner has unexpectedly stopped' }).replyWith('one two three four five [1]');
    const { pieces, error } = await drain(llm.answerStream(REQUEST, new AbortController().signal));
    expect(pieces.join('')).to.equal('one two three');
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(error!.message).to.match(/model runner has unexpectedly stopped/);
  });

  it('a connection dropped mid-stream becomes UpstreamUnavailableError', async () => {
    server.failStreamAfter(2, { hangUp: true }).replyWith('one two three four [1]');
    const { error } = await drain(llm.answerStream(REQUEST, new AbortController().signal));
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
  });

  it('a server that is down fails the first step with UpstreamUnavailableError (nothing was yielded)', async () => {
    server.fail('/api/chat', { status: 500, error: 'boom', times: 1 });
    const { pieces, error } = await drain(llm.answerStream(REQUEST, new AbortController().signal));
    expect(pieces).to.deep.equal([]);
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(error!.message).to.match(/HTTP 500 boom/);
  });
});
