import { expect } from 'chai';
import { OllamaEmbedder, taskPrefixesFor } from '../../../adapters/ollama/ollama-embedder.js';
import { UpstreamUnavailableError } from '../../../core/domain/errors.js';
import { cosine } from '../../support/vectors.js';
import { FakeOllamaServer } from '../../support/fake-ollama-server.js';
import { freePort } from '../../support/free-port.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

function expectUpstream(error: Error, pattern?: RegExp): void {
  expect(error, String(error)).to.be.instanceOf(UpstreamUnavailableError);
  expect((error as UpstreamUnavailableError).dependency).to.equal('ollama');
  if (pattern) expect(error.message).to.match(pattern);
}

const QUERY_PROMPT = 'Represent this sentence for searching relevant passages: ';

describe('taskPrefixesFor', function () {
  it('knows nomic-embed-text and mxbai-embed-large by name prefix, ignoring namespaces, tags and case', function () {
    const nomic = { document: 'search_document: ', query: 'search_query: ' };
    expect(taskPrefixesFor('nomic-embed-text')).to.deep.equal(nomic);
    expect(taskPrefixesFor('nomic-embed-text:v1.5')).to.deep.equal(nomic);
    expect(taskPrefixesFor('registry.ollama.ai/library/Nomic-Embed-Text:latest')).to.deep.equal(nomic);
    expect(taskPrefixesFor('mxbai-embed-large:335m')).to.deep.equal({ document: '', query: QUERY_PROMPT });
    expect(taskPrefixesFor('all-minilm')).to.deep.equal({ document: '', query: '' });
    expect(taskPrefixesFor('bge-m3')).to.deep.equal({ document: '', query: '' });
  });
});

describe('OllamaEmbedder against a fake Ollama server', function () {
  let server: FakeOllamaServer;
  const embedder = (options: Partial<ConstructorParameters<typeof OllamaEmbedder>[0]> = {}) =>
    new OllamaEmbedder({ host: server.url, model: 'nomic-embed-text', timeoutMs: 5_000, ...options });

  before(async function () {
    server = await FakeOllamaServer.start();
  });

  afterEach(function () {
    server.reset();
  });

  after(async function () {
    await server.close();
  });

  it('sends nomic-embed-text its task prefixes: search_document for documents, search_query for queries', async function () {
    const subject = embedder();
    const docs = await subject.embedDocuments(['The warranty lasts 24 months.', 'Bananas are yellow.']);
    const query = await subject.embedQuery('How long is the warranty?');
    expect(server.embedRequests()).to.deep.equal([
      { model: 'nomic-embed-text', input: ['search_document: The warranty lasts 24 months.', 'search_document: Bananas are yellow.'] },
      { model: 'nomic-embed-text', input: ['search_query: How long is the warranty?'] },
    ]);
    expect(docs[0]).to.deep.equal(server.embedding('search_document: The warranty lasts 24 months.'));
    expect(query).to.deep.equal(server.embedding('search_query: How long is the warranty?'));
  });

  it('sends mxbai-embed-large its query prompt only, and other models the text as is', async function () {
    await embedder({ model: 'mxbai-embed-large' }).embedDocuments(['A passage.']);
    await embedder({ model: 'mxbai-embed-large' }).embedQuery('A question?');
    await embedder({ model: 'all-minilm' }).embedDocuments(['A passage.']);
    await embedder({ model: 'all-minilm' }).embedQuery('A question?');
    expect(server.embeddedInputs()).to.deep.equal(['A passage.', `${QUERY_PROMPT}A question?`, 'A passage.', 'A question?']);
  });

  it('takes prefix overrides', async function () {
    const subject = embedder({ model: 'all-minilm', prefixes: { query: 'query: ', document: 'passage: ' } });
    await subject.embedDocuments(['x']);
    await subject.embedQuery('y');
    expect(server.embeddedInputs()).to.deep.equal(['passage: x', 'query: y']);
  });

  it('embeds documents in batches of batchSize, in order', async function () {
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`);
    const vectors = await embedder({ model: 'all-minilm' }).embedDocuments(texts);
    expect(server.embedRequests().map((r) => (r.input as string[]).length)).to.deep.equal([32, 32, 6]);
    expect(vectors).to.deep.equal(texts.map((t) => server.embedding(t)));
    server.reset();
    await embedder({ model: 'all-minilm', batchSize: 5 }).embedDocuments(texts.slice(0, 12));
    expect(server.embedRequests().map((r) => (r.input as string[]).length)).to.deep.equal([5, 5, 2]);
  });

  it('sends nothing for no texts, and keep_alive when configured', async function () {
    expect(await embedder().embedDocuments([])).to.deep.equal([]);
    expect(server.requests).to.have.length(0);
    await embedder({ keepAlive: '1h' }).embedQuery('q');
    expect(server.embedRequests()[0].keep_alive).to.equal('1h');
  });

  it('retrieves through the fake model: the passage sharing the question’s words ranks first', async function () {
    const subject = embedder();
    const passages = [
      'Bananas ripen faster in a closed paper bag.',
      'The X200 drill battery charges fully in 90 minutes.',
      'The X200 drill warranty period is 24 months from purchase.',
      'Alpine glaciers retreat as summers get warmer.',
    ];
    const vectors = await subject.embedDocuments(passages);
    const query = await subject.embedQuery('What is the warranty period of the X200 drill?');
    const ranked = passages.map((p, i) => ({ p, score: cosine(query, vectors[i]) })).sort((a, b) => b.score - a.score);
    expect(ranked[0].p).to.equal(passages[2]);
    expect(ranked[1].p).to.equal(passages[1]);
  });

  describe('failures', function () {
    it('gives up after timeoutMs on a slow batch', async function () {
      server.delay('/api/embed', 3_000);
      const started = Date.now();
      const error = await rejection(embedder({ timeoutMs: 300 }).embedDocuments(['a']));
      expectUpstream(error, /did not finish embedding within 300 ms/);
      expect(Date.now() - started).to.be.within(250, 1_500);
    });

    it('reports a server that is not running', async function () {
      const port = await freePort();
      const subject = new OllamaEmbedder({ host: `http://127.0.0.1:${port}`, model: 'nomic-embed-text' });
      expectUpstream(await rejection(subject.embedQuery('q')), /not reachable .*ECONNREFUSED/);
    });

    it('reports a 500', async function () {
      server.fail('/api/embed', { status: 500, times: 1 });
      expectUpstream(await rejection(embedder().embedQuery('q')), /HTTP 500/);
      expect(await embedder().embedQuery('q')).to.have.length(server.dimensions);
    });

    it('tells the operator to pull a missing model', async function () {
      expectUpstream(await rejection(embedder({ model: 'bge-m3' }).embedDocuments(['a'])), /`ollama pull bge-m3`/);
    });

    it('rejects an answer with the wrong number of vectors or ragged ones', async function () {
      server.fail('/api/embed', { status: 200, body: { model: 'nomic-embed-text', embeddings: [[0.1, 0.2]] }, times: 1 });
      expectUpstream(await rejection(embedder().embedDocuments(['a', 'b'])), /1 vectors for 2 texts/);
      server.fail('/api/embed', { status: 200, body: { model: 'nomic-embed-text', embeddings: [[0.1, 0.2], [0.3]] }, times: 1 });
      expectUpstream(await rejection(embedder().embedDocuments(['a', 'b'])), /differing length/);
      server.fail('/api/embed', { status: 200, body: { model: 'nomic-embed-text' }, times: 1 });
      expectUpstream(await rejection(embedder().embedQuery('a')), /no vectors for 1 texts/);
    });
  });

  describe('check (readiness)', function () {
    it('passes when the model is there, fails with the pull command when it is not', async function () {
      await embedder().check();
      expectUpstream(await rejection(embedder({ model: 'snowflake-arctic-embed' }).check()), /`ollama pull snowflake-arctic-embed`/);
    });

    it('fails when the server is down', async function () {
      const port = await freePort();
      expectUpstream(await rejection(new OllamaEmbedder({ host: `http://127.0.0.1:${port}`, model: 'nomic-embed-text' }).check()), /not reachable/);
    });
  });
});
