import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { readServerSentEvents, type ServerSentEvent } from '../support/server-sent-events.js';
import { STACKS, type ProductionStack } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const WIRE_QUESTION = 'How much does an international wire transfer cost at Acme Bank?';
const SERVICE_UNAVAILABLE_CHAT = { success: false, error: 'Service Unavailable' };

const data = (event: ServerSentEvent) => JSON.parse(event.data);
const deltaText = (events: ServerSentEvent[]) => events.filter((e) => e.event === 'delta').map((e) => data(e).text as string).join('');

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect.fail(`timed out waiting until ${what}`);
}

// Streamed answers (Accept: text/event-stream) through a real HTTP client (fetch), on the embedded stack (the
// extractive answerer, sent in sentences) and the production one (Ollama's streamed chat API, token by token).
for (const makeStack of STACKS) {
  const stack = makeStack();

  describe(`streamed answers over HTTP, server-sent events (${stack.name} stack)`, function () {
    this.timeout(60_000);
    let t: TestService;
    let alice: ApiClient;
    let bob: ApiClient;
    let sessionId: string;

    const history = async () =>
      (await alice.get(`/api/v1/chat/history/${sessionId}`)).body.data as { role: string; content: string; sources?: unknown[] }[];

    before(async () => {
      t = await stack.start();
      alice = await t.as('alice');
      bob = await t.as('bob');
      sessionId = await alice.createSession('streaming');
      await alice.uploadAndIngest(sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf', { institution: 'acme' });
      await alice.uploadAndIngest(sessionId, 'globex-fees.pdf', GLOBEX.bytes, 'application/pdf', { institution: 'globex' });
      await t.service.whenIngestionIdle();
    });
    // A fresh history per test: no follow-up rewrite, so the fake model's scripted replies go to the answer.
    beforeEach(async () => {
      expect((await alice.delete(`/api/v1/chat/${sessionId}`)).status).to.equal(204);
      if (stack.name === 'production') (stack as ProductionStack).ollama.reset();
    });
    after(() => stack.close());

    it('sends delta events, then one sources event, then done; the answer is stored as streamed', async () => {
      const res = await alice.askStream({ sessionId, message: WIRE_QUESTION });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      const names = res.events.map((e) => e.event);
      expect(names.slice(-2)).to.deep.equal(['sources', 'done']);
      expect(names.slice(0, -2).every((n) => n === 'delta'), names.join(' ')).to.equal(true);
      expect(names.filter((n) => n === 'delta').length).to.be.greaterThan(1);
      const answer = deltaText(res.events);
      expect(answer).to.include('45 dollars');
      const { sources } = data(res.events.at(-2)!);
      expect(sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2 });
      const done = data(res.events.at(-1)!);
      expect(done.userMessageId).to.be.a('string').and.not.equal(done.assistantMessageId);
      const stored = await history();
      expect(stored.map((m) => [m.role, m.content])).to.deep.equal([['user', WIRE_QUESTION], ['assistant', answer]]);
      // The history gives the answer back with the sources the stream sent.
      expect(stored[1].sources).to.deep.equal(sources);
      expect(stored[0]).to.not.have.property('sources');
    });

    if (stack.name === 'embedded') {
      it('says not found first, streamed and stored alike, with what came closest, when no passage mentions the name asked about', async () => {
        const question = 'What does Initech charge for an international wire transfer?';
        const res = await alice.askStream({ sessionId, message: question });
        expect(res.status, res.text).to.equal(200);
        const answer = deltaText(res.events);
        expect(answer.startsWith('I could not find this in your documents. None of the passages I found mentions Initech.\n\nClosest found: “'), answer).to.equal(true);
        expect(answer).to.include('dollars'); // the closest passages are still quoted, and cited
        const { sources } = data(res.events.find((e) => e.event === 'sources')!);
        expect(sources.filter((s: { cited: boolean }) => s.cited).length).to.be.greaterThan(0);
        expect((await history()).map((m) => m.content)).to.deep.equal([question, answer]);
      });
    }

    it('applies the filters to a streamed answer too', async () => {
      const res = await alice.askStream({ sessionId, message: 'What is the monthly maintenance fee?', filters: { institution: ['globex'] } });
      expect(res.status, res.text).to.equal(200);
      expect(deltaText(res.events)).to.include('3 dollars');
      const { sources } = data(res.events.find((e) => e.event === 'sources')!);
      expect(sources.length).to.be.greaterThan(0);
      expect(sources.every((s: { filename: string }) => s.filename === 'globex-fees.pdf')).to.equal(true);
    });

    it('answers failures before the stream starts with their status and JSON body, storing nothing', async () => {
      const bad = await alice.askStream({ sessionId, message: 'hi', filters: { year: [2024] } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'filters.year: each filter must be a string or an array of strings' });
      expect((await alice.askStream({ sessionId, message: '  ' })).status).to.equal(400);
      const foreign = await bob.askStream({ sessionId, message: WIRE_QUESTION });
      expect(foreign.status).to.equal(404);
      expect(foreign.body).to.deep.equal({ error: 'Session not found' });
      const anonymous = await t.anonymous.askStream({ sessionId, message: WIRE_QUESTION });
      expect(anonymous.status).to.equal(401);
      expect(await history()).to.deep.equal([]);
    });

    it('without the header the route answers JSON as before', async () => {
      const res = await alice.ask(sessionId, WIRE_QUESTION);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body).to.include({ success: true });
    });

    if (stack.name === 'production') {
      const ollama = () => (stack as ProductionStack).ollama;
      const LONG_REPLY = 'International wire transfers at Acme Bank cost 45 dollars each, as the fee schedule says on its second page. [1]';

      it('streams the model’s tokens as they come: the first events arrive before the model has finished', async () => {
        ollama().streamTokensEvery(150).replyWith(LONG_REPLY);
        const controller = new AbortController();
        const res = await alice.openStream({ sessionId, message: WIRE_QUESTION }, controller.signal);
        expect(res.status).to.equal(200);
        const seen: ServerSentEvent[] = [];
        for await (const event of readServerSentEvents(res.body!)) {
          seen.push(event);
          // Two deltas in hand while the model still has tokens to send; nothing has been stored yet.
          if (seen.length === 2) {
            expect(ollama().completedStreams).to.equal(0);
            expect(await history()).to.deep.equal([]);
          }
        }
        expect(seen.map((e) => e.event).slice(-2)).to.deep.equal(['sources', 'done']);
        expect(deltaText(seen)).to.equal(LONG_REPLY);
        expect(seen.filter((e) => e.event === 'delta').length).to.equal(LONG_REPLY.split(' ').length);
        expect(ollama().abortedStreams).to.equal(0);
        expect(ollama().completedStreams).to.equal(1);
      });

      it('a client that disconnects mid-answer aborts the request to the model, and nothing is stored', async () => {
        ollama().streamTokensEvery(200).replyWith(LONG_REPLY);
        const controller = new AbortController();
        const res = await alice.openStream({ sessionId, message: WIRE_QUESTION }, controller.signal);
        expect(res.status).to.equal(200);
        let deltas = 0;
        try {
          for await (const event of readServerSentEvents(res.body!)) {
            if (event.event === 'delta' && ++deltas === 2) controller.abort();
          }
        } catch (error) {
          expect((error as Error).name).to.equal('AbortError');
        }
        expect(deltas).to.equal(2);
        await until(() => ollama().abortedStreams === 1, 'the model’s streamed reply was abandoned');
        // Storing would follow the model's last token, which never comes: give the service a moment, then look.
        await new Promise((r) => setTimeout(r, 300));
        expect(ollama().completedStreams).to.equal(0);
        expect(await history()).to.deep.equal([]);
        // And the service still answers.
        expect((await alice.askStream({ sessionId, message: WIRE_QUESTION })).status).to.equal(200);
      });

      it('a client that leaves before the first token: the model’s request is cancelled, nothing stored, nothing logged as failed', async () => {
        ollama().delay('/api/chat', 1_000);
        const failuresBefore = t.logger.lines.filter((e) => e.level === 'error').length;
        const controller = new AbortController();
        const pending = alice.openStream({ sessionId, message: WIRE_QUESTION }, controller.signal);
        await until(() => ollama().requestsTo('/api/chat').length === 1, 'the model was asked');
        controller.abort();
        expect(await pending.then(() => 'answered', (e: Error) => e.name)).to.equal('AbortError');
        await until(() => ollama().abandonedRequests === 1, 'the model’s request was cancelled');
        await new Promise((r) => setTimeout(r, 300));
        expect(await history()).to.deep.equal([]);
        expect(t.logger.lines.filter((e) => e.level === 'error').length).to.equal(failuresBefore);
      });

      it('a model that fails mid-answer ends the stream with an error event after the deltas, and nothing is stored', async () => {
        ollama().failStreamAfter(3, { error: 'model runner has unexpectedly stopped' }).replyWith(LONG_REPLY);
        const res = await alice.askStream({ sessionId, message: WIRE_QUESTION });
        expect(res.status).to.equal(200);
        expect(res.events.map((e) => e.event)).to.deep.equal(['delta', 'delta', 'delta', 'error']);
        expect(data(res.events.at(-1)!)).to.deep.equal(SERVICE_UNAVAILABLE_CHAT);
        expect(await history()).to.deep.equal([]);
        const logged = t.logger.lines.filter((e) => e.message === 'streamed answer failed');
        expect(logged.length).to.be.greaterThan(0);
      });

      it('a model that is down before the first token: 503 with the chat route’s JSON body', async () => {
        ollama().fail('/api/chat', { status: 500, error: 'boom' });
        const res = await alice.askStream({ sessionId, message: WIRE_QUESTION });
        expect(res.status).to.equal(503);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(res.body).to.deep.equal(SERVICE_UNAVAILABLE_CHAT);
        expect(await history()).to.deep.equal([]);
      });
    }
  });
}
