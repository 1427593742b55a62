import { expect } from 'chai';
import { RecordsUnavailableError, UpstreamUnavailableError } from '../../../core/domain/errors.js';
import type { IngestJob } from '../../../core/domain/model.js';
import type { IngestJobPatch } from '../../../core/ports/ingest-job-repo.js';
import type { Answer, AnswerRequest, Llm } from '../../../core/ports/llm.js';
import { LANGUAGE_MODEL_UNAVAILABLE_NOTE, SEMANTIC_SEARCH_UNAVAILABLE_NOTE } from '../../../core/rag/answer-notes.js';
import { LlmWithFallback } from '../../../core/rag/llm-fallback.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/index.js';
import { FlakyVectorIndex } from '../../fakes/flaky-vector-index.js';
import { HashingEmbedder } from '../../fakes/hashing-embedder.js';
import { InMemoryVectorIndex } from '../../fakes/in-memory-vector-index.js';
import { InMemoryIngestJobRepo } from '../../fakes/in-memory-repos.js';
import { coreFixture } from '../../support/core-fixture.js';

/**
 * Issue 48, point 4, in the core: what a question or a job does when one dependency does not answer. The semantic
 * search (dense index, embedder) has a stand-in (the lexical index alone, with a note); the language model has one
 * only when it is wrapped in LlmWithFallback; the records' database has none, and a job waits it out.
 */

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);
const TEXT = 'Photosynthesis converts light into chemical energy in plants. Roots take up water from the soil.';
const QUESTION = 'How do plants convert light?';

/** An embedder that can go down like Ollama: while `down`, every call throws UpstreamUnavailableError. */
class FlakyEmbedder extends HashingEmbedder {
  down = false;
  override async embedQuery(text: string): Promise<number[]> {
    if (this.down) throw new UpstreamUnavailableError('ollama', 'Ollama is not reachable');
    return super.embedQuery(text);
  }
}

/** A model that can go down, or fail in a way of its own; it answers by naming its first passage. */
class ModelLlm implements Llm {
  failure: Error | null = null;
  async answer(request: AnswerRequest): Promise<Answer> {
    if (this.failure) throw this.failure;
    return { text: 'The model says: light becomes chemical energy [1].', usedRefs: request.contexts.slice(0, 1).map((c) => c.ref), markers: { [request.contexts[0].ref]: 1 } };
  }
  async *answerStream(request: AnswerRequest): AsyncGenerator<string, Answer, undefined> {
    const answer = await this.answer(request);
    yield answer.text;
    return answer;
  }
  async rewriteQuestion(): Promise<string> {
    if (this.failure) throw this.failure;
    return QUESTION;
  }
}

async function hybridFixture() {
  const lexical = new InMemoryVectorIndex({ kind: 'lexical' });
  const dense = new FlakyVectorIndex({ kind: 'dense' });
  const embedder = new FlakyEmbedder();
  const f = coreFixture({ indexes: [lexical, dense], embedder });
  const { session, job } = await f.sessionWithUpload('u1', TEXT, 'plants.pdf');
  await f.drain();
  expect(await dense.count({ sessionId: session.id })).to.be.above(0);
  const ask = () => f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: QUESTION });
  return { f, dense, embedder, session, job, ask };
}

describe('dependencies down, in the core (issue 48, point 4)', () => {
  describe('the semantic search', () => {
    it('the dense index down: answered from the lexical index, with a note, and stored with it; back: no note', async () => {
      const { f, dense, job, ask } = await hybridFixture();
      const before = await ask();
      expect(before.answer).to.not.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);

      dense.down = true;
      const during = await ask();
      expect(during.answer.endsWith(`\n\n${SEMANTIC_SEARCH_UNAVAILABLE_NOTE}`), during.answer).to.equal(true);
      expect(during.answer).to.include('Photosynthesis converts light into chemical energy');
      expect(during.sources[0]).to.include({ filename: 'plants.pdf', ingestId: job.id });
      expect(f.chats.rows.at(-1)?.content).to.equal(during.answer);

      dense.down = false;
      const after = await ask();
      expect(after.answer).to.equal(before.answer);
    });

    it('the embedding model down: the same stand-in and note (no embedding, no dense search)', async () => {
      const { embedder, ask } = await hybridFixture();
      embedder.down = true;
      const during = await ask();
      expect(during.answer).to.include('Photosynthesis converts light').and.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);
    });

    it('streams the note as the answer’s last piece', async () => {
      const { f, dense, session } = await hybridFixture();
      dense.down = true;
      const pieces: string[] = [];
      for await (const event of f.docChat.askQuestion.stream({ userId: 'u1', sessionId: session.id, message: QUESTION }, new AbortController().signal)) {
        if (event.type === 'delta') pieces.push(event.text);
      }
      expect(pieces.at(-1)).to.equal(`\n\n${SEMANTIC_SEARCH_UNAVAILABLE_NOTE}`);
      expect(f.chats.rows.at(-1)?.content).to.equal(pieces.join(''));
    });

    it('a dense index failing for a reason of its own is not hidden, and the lexical index has no stand-in', async () => {
      const { f, dense, ask } = await hybridFixture();
      const stored = f.chats.rows.length;
      dense.search = async () => {
        throw new TypeError('a bug in the index');
      };
      expect(await rejection(ask())).to.be.instanceOf(TypeError);

      const lexical = new FlakyVectorIndex({ kind: 'lexical' });
      const g = coreFixture({ indexes: [lexical] });
      const { session } = await g.sessionWithUpload('u1', TEXT);
      await g.drain();
      lexical.down = true;
      const error = await rejection(g.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: QUESTION }));
      expect(error).to.be.instanceOf(UpstreamUnavailableError);
      expect(g.chats.rows).to.deep.equal([]);
      expect(f.chats.rows).to.have.length(stored);
    });
  });

  describe('the language model, with the extractive stand-in (LlmWithFallback)', () => {
    const request = (): AnswerRequest => ({
      question: QUESTION,
      history: [],
      contexts: [{ ref: '[1]', filename: 'plants.pdf', page: 1, text: TEXT, score: 1 }],
    });

    it('up: the model’s own answer, untouched', async () => {
      const model = new ModelLlm();
      const llm = new LlmWithFallback(model, new ExtractiveAnswerer());
      expect(await llm.answer(request())).to.deep.equal(await model.answer(request()));
    });

    it('down: the extractive answer with the note, whole and streamed alike', async () => {
      const model = new ModelLlm();
      model.failure = new UpstreamUnavailableError('ollama', 'Ollama is not reachable');
      const llm = new LlmWithFallback(model, new ExtractiveAnswerer());
      const whole = await llm.answer(request());
      expect(whole.text).to.include('Photosynthesis converts light into chemical energy').and.include('plants.pdf');
      expect(whole.text.endsWith(`\n\n${LANGUAGE_MODEL_UNAVAILABLE_NOTE}`)).to.equal(true);
      expect(whole.usedRefs).to.deep.equal(['[1]']);

      const pieces: string[] = [];
      const stream = llm.answerStream(request(), new AbortController().signal);
      let next = await stream.next();
      for (; !next.done; next = await stream.next()) pieces.push(next.value);
      expect(pieces.join('')).to.equal(whole.text);
      expect(next.value).to.deep.equal(whole);
    });

    it('a failure of the model’s own (not an outage) is not hidden', async () => {
      const model = new ModelLlm();
      model.failure = new RangeError('a bug in the model adapter');
      const llm = new LlmWithFallback(model, new ExtractiveAnswerer());
      expect(await rejection(llm.answer(request()))).to.be.instanceOf(RangeError);
      expect(await rejection(llm.answerStream(request(), new AbortController().signal).next())).to.be.instanceOf(RangeError);
    });

    it('a follow-up while the model is down: core rewrites it, and both notes are under the answer', async () => {
      const model = new ModelLlm();
      const embedder = new FlakyEmbedder();
      const f = coreFixture({ llm: new LlmWithFallback(model, new ExtractiveAnswerer()), indexes: [new InMemoryVectorIndex({ kind: 'lexical' }), new InMemoryVectorIndex({ kind: 'dense' })], embedder });
      const { session } = await f.sessionWithUpload('u1', TEXT, 'plants.pdf');
      await f.drain();
      await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What do roots take up?' });
      model.failure = new UpstreamUnavailableError('ollama', 'Ollama is not reachable');
      embedder.down = true;
      const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: QUESTION });
      expect(result.answer).to.include('Photosynthesis converts light');
      expect(result.answer).to.include(LANGUAGE_MODEL_UNAVAILABLE_NOTE).and.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);
      expect(result.sources[0]).to.include({ filename: 'plants.pdf' });
    });
  });

  describe('the records’ database', () => {
    /** A job repository whose database goes away for the next `outages` writes that start a run. */
    class FlakyJobRepo extends InMemoryIngestJobRepo {
      outages = 0;
      override async update(id: string, patch: IngestJobPatch): Promise<IngestJob | null> {
        if (patch.status === 'processing' && this.outages > 0) {
          this.outages--;
          throw new RecordsUnavailableError('The database is unavailable (ECONNREFUSED); try again shortly');
        }
        return super.update(id, patch);
      }
    }

    it('a job that meets it is run again, not failed: it completes once the database answers', async () => {
      const jobs = new FlakyJobRepo();
      const f = coreFixture({ jobs });
      jobs.outages = 1;
      const { job } = await f.sessionWithUpload('u1', TEXT);
      await f.drain();
      expect(jobs.outages, 'the run met the outage').to.equal(0);
      const done = await jobs.findById(job.id);
      expect(done, JSON.stringify(done)).to.include({ status: 'completed' });
      expect(f.logger.lines.map((l) => l.message)).to.include('ingest attempt failed; retrying');
      expect(await f.index.count({ jobId: job.id })).to.be.above(0);
    });

    it('another dependency down still fails the job at once, naming it (the file is kept to ingest again)', async () => {
      const dense = new FlakyVectorIndex({ kind: 'dense' });
      const f = coreFixture({ indexes: [new InMemoryVectorIndex({ kind: 'lexical' }), dense], embedder: new HashingEmbedder() });
      dense.down = true;
      const { job } = await f.sessionWithUpload('u1', TEXT);
      await f.drain();
      const failed = await f.jobs.findById(job.id);
      expect(failed?.status).to.equal('failed');
      expect(failed?.error).to.match(/unavailable/);
    });
  });
});
