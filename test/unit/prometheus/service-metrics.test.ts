import { expect } from 'chai';
import { UnprocessableDocumentError, UpstreamUnavailableError } from '../../../core/domain/errors.js';
import { countDependencyErrors, instrumentIndex, instrumentReader } from '../../../adapters/prometheus/instrumented-ports.js';
import { ServiceMetrics } from '../../../adapters/prometheus/service-metrics.js';
import type { Answer, AnswerRequest, Llm } from '../../../core/ports/llm.js';
import { FakeDocumentReader } from '../../fakes/fake-document-reader.js';
import { HandOverReader } from '../../fakes/hand-over-reader.js';
import { collectGarbage } from '../../support/collect-garbage.js';
import { FlakyVectorIndex } from '../../fakes/flaky-vector-index.js';

/** The value of one series in Prometheus' text format, or undefined when absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('ServiceMetrics and instrumented ports', () => {
  it('reports jobs by state from the shared counts at each scrape', async () => {
    let counts = { queued: 2, processing: 1 };
    const metrics = new ServiceMetrics(async () => counts, { processMetrics: false });
    let text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_ingest_jobs{state="queued"}')).to.equal(2);
    expect(valueOf(text, 'doc_chat_ingest_jobs{state="completed"}')).to.equal(0);
    counts = { queued: 0, processing: 3 };
    text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_ingest_jobs{state="queued"}')).to.equal(0);
    expect(valueOf(text, 'doc_chat_ingest_jobs{state="processing"}')).to.equal(3);
  });

  it('reports each watched database pool\'s open, idle and waiting connections at each scrape', async () => {
    const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
    let search = { total: 4, idle: 0, waiting: 7 };
    metrics.watchDatabasePool('records', () => ({ total: 2, idle: 2, waiting: 0 }));
    metrics.watchDatabasePool('search', () => search);
    let text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_database_connections{pool="records",state="idle"}')).to.equal(2);
    expect(valueOf(text, 'doc_chat_database_connections{pool="search",state="waiting"}')).to.equal(7);
    search = { total: 4, idle: 4, waiting: 0 };
    text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_database_connections{pool="search",state="waiting"}')).to.equal(0);
    expect(valueOf(text, 'doc_chat_database_connections{pool="search",state="idle"}')).to.equal(4);
  });

  it('times index searches and counts an index outage, passing results and errors through', async () => {
    const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
    const flaky = new FlakyVectorIndex();
    const index = instrumentIndex(flaky, metrics, 'vector index (Chroma)');
    expect(index.kind).to.equal('lexical');
    await index.add([{ id: 'c1', sessionId: 's', jobId: 'j', filename: 'f.pdf', page: 1, ordinal: 0, text: 'glaciers carve valleys', tags: {} }]);
    const hits = await index.search({ sessionId: 's', text: 'glaciers', limit: 5 });
    expect(hits.map((h) => h.chunk.id)).to.deep.equal(['c1']);
    flaky.down = true;
    let thrown: unknown;
    await index.search({ sessionId: 's', text: 'glaciers', limit: 5 }).catch((e: unknown) => (thrown = e));
    expect(thrown).to.be.instanceOf(UpstreamUnavailableError);
    const text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_index_search_duration_seconds_count{index="lexical"}')).to.equal(2);
    expect(valueOf(text, 'doc_chat_dependency_errors_total{dependency="vector index (Chroma)"}')).to.equal(1);
  });

  it('counts extracted pages by method and extraction outcomes', async () => {
    const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
    const fake = new FakeDocumentReader();
    const reader = instrumentReader(fake, metrics);
    const pages = await reader.read({ document: Buffer.from('page one\fpage two'), contentType: 'application/pdf' });
    expect(pages).to.have.length(2);
    fake.failWith = new UnprocessableDocumentError('encrypted');
    await reader.read({ document: Buffer.from('x'), contentType: 'application/pdf' }).catch(() => undefined);
    const text = await metrics.scrape();
    expect(valueOf(text, `doc_chat_pages_extracted_total{method="${pages[0].method}"}`)).to.equal(2);
    expect(valueOf(text, 'doc_chat_extraction_duration_seconds_count{outcome="completed"}')).to.equal(1);
    expect(valueOf(text, 'doc_chat_extraction_duration_seconds_count{outcome="failed"}')).to.equal(1);
  });

  it('does not hold the document’s bytes while the reader it times reads them', async () => {
    const inner = new HandOverReader();
    const reader = instrumentReader(inner, new ServiceMetrics(async () => ({}), { processMetrics: false }));
    const reading = reader.read({ document: Buffer.from('page one\fpage two'), contentType: 'application/pdf' });
    await inner.waiting;
    await collectGarbage();
    const held = inner.pieces[0].deref() !== undefined;
    inner.finish();
    expect(await reading).to.have.length(2);
    expect(held, 'the bytes are still reachable while the reader reads').to.equal(false);
  });

  it('counts only outages of a wrapped dependency, not the caller’s own errors', async () => {
    const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
    const adapter = {
      calls: 0,
      async down(): Promise<void> {
        this.calls += 1;
        throw new UpstreamUnavailableError('object storage', 'the S3 server did not answer');
      },
      async refused(): Promise<void> {
        throw new UnprocessableDocumentError('not a PDF');
      },
      sync: () => 42,
    };
    const wrapped = countDependencyErrors(adapter, metrics, 'object storage (S3)');
    await wrapped.down().catch(() => undefined);
    await wrapped.refused().catch(() => undefined);
    expect(wrapped.sync()).to.equal(42);
    expect(adapter.calls).to.equal(1); // `this` is the adapter itself
    const text = await metrics.scrape();
    expect(valueOf(text, 'doc_chat_dependency_errors_total{dependency="object storage (S3)"}')).to.equal(1);
  });

  it('hands a streamed answer (an async generator) through untouched, and keeps an absent stream absent', async () => {
    const metrics = new ServiceMetrics(async () => ({}), { processMetrics: false });
    /** A model that streams, with private state behind a getter (read on the adapter, not on the proxy). */
    class StreamingLlm implements Llm {
      #calls = 0;
      get calls(): number {
        return this.#calls;
      }
      async answer(): Promise<Answer> {
        this.#calls += 1;
        return { text: 'whole', usedRefs: [] };
      }
      async *answerStream(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
        this.#calls += 1;
        for (const piece of ['Glaciers ', 'carve ', request.question]) {
          if (signal.aborted) throw new UpstreamUnavailableError('chat model (Ollama)', 'aborted');
          yield piece;
        }
        return { text: `Glaciers carve ${request.question}`, usedRefs: ['1'] };
      }
    }
    const llm = countDependencyErrors<Llm>(new StreamingLlm(), metrics, 'ollama');
    const stream = llm.answerStream!({ question: 'valleys.', contexts: [], history: [] }, new AbortController().signal);
    const pieces: string[] = [];
    let step = await stream.next();
    for (; !step.done; step = await stream.next()) pieces.push(step.value);
    expect(pieces).to.deep.equal(['Glaciers ', 'carve ', 'valleys.']);
    expect(step.value).to.deep.equal({ text: 'Glaciers carve valleys.', usedRefs: ['1'] });
    expect((await llm.answer({ question: 'q', contexts: [], history: [] })).text).to.equal('whole');
    expect((llm as StreamingLlm).calls).to.equal(2);
    // Without answerStream the core must still see none, and fall back to sentences of the whole answer.
    const plain = countDependencyErrors<Llm>({ answer: async () => ({ text: 'x', usedRefs: [] }) }, metrics, 'ollama');
    expect(plain.answerStream).to.equal(undefined);
    expect('answerStream' in plain).to.equal(false);
  });

  it('serves process metrics too unless asked not to', async () => {
    const text = await new ServiceMetrics(async () => ({})).scrape();
    expect(text).to.match(/^doc_chat_process_resident_memory_bytes \d+/m);
  });
});
