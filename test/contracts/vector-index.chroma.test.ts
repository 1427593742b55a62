import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect } from 'chai';
import { ChromaClient } from 'chromadb';
import { ChromaVectorIndex } from '../../adapters/chroma/chroma-vector-index.js';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import { startChromaServer, type ChromaServer } from '../support/chroma-server.js';
import { HashingEmbedder } from '../fakes/hashing-embedder.js';
import { vectorIndexContract } from './vector-index.contract.js';

describe('ChromaVectorIndex against a real Chroma server (chromadb package CLI)', function () {
  this.timeout(30_000);
  let server: ChromaServer;

  before(async function () {
    server = await startChromaServer();
  });

  after(async function () {
    await server?.stop();
  });

  // A fresh collection per test; dropped afterwards.
  vectorIndexContract('ChromaVectorIndex', async () => {
    const collection = `contract-${randomUUID()}`;
    const index = new ChromaVectorIndex({ url: server.url, collection, batchSize: 100 });
    await index.init();
    return {
      index,
      cleanup: async () => {
        await new ChromaClient({ host: server.host, port: server.port }).deleteCollection({ name: collection });
      },
    };
  });

  describe('ChromaVectorIndex specifics', function () {
    it('check() resolves while the server answers its heartbeat', async function () {
      await new ChromaVectorIndex({ url: server.url, collection: `probe-${randomUUID()}` }).check();
    });

    it('init() is idempotent and reuses the collection: a second instance sees the first one’s chunks', async function () {
      const collection = `shared-${randomUUID()}`;
      const embedder = new HashingEmbedder();
      const first = new ChromaVectorIndex({ url: server.url, collection });
      await first.init();
      await first.init();
      const text = 'Report: narwhal tusks are elongated teeth.';
      await first.add([
        { id: 'c-1', sessionId: 's-1', jobId: 'j-1', filename: 'a.pdf', page: 1, ordinal: 0, text, tags: {}, embedding: embedder.embed(text) },
      ]);
      const second = new ChromaVectorIndex({ url: server.url, collection });
      await second.init();
      expect(await second.count({ sessionId: 's-1' })).to.equal(1);
      const hits = await second.search({ sessionId: 's-1', text: 'narwhal', embedding: embedder.embed('narwhal tusks'), limit: 1 });
      expect(hits[0].chunk.id).to.equal('c-1');
      expect(hits[0].score).to.be.greaterThan(0).and.at.most(1.000001);
      await new ChromaClient({ host: server.host, port: server.port }).deleteCollection({ name: collection });
    });

    it('opens its collection again when Chroma no longer has it (deleted, or the server lost its data)', async function () {
      const collection = `reset-${randomUUID()}`;
      const embedder = new HashingEmbedder();
      const index = new ChromaVectorIndex({ url: server.url, collection });
      await index.init();
      const chunk = (id: string, text: string) => ({
        id, sessionId: 's-1', jobId: 'j-1', filename: 'a.pdf', page: 1, ordinal: 0, text, tags: {}, embedding: embedder.embed(text),
      });
      await index.add([chunk('c-1', 'Narwhal tusks are elongated teeth.')]);
      const client = new ChromaClient({ host: server.host, port: server.port });
      await client.deleteCollection({ name: collection });
      // Every operation works on the re-created (empty) collection instead of failing with "not found" for ever.
      expect(await index.search({ sessionId: 's-1', text: 'narwhal', embedding: embedder.embed('narwhal'), limit: 3 })).to.deep.equal([]);
      expect(await index.count({ sessionId: 's-1' })).to.equal(0);
      await client.deleteCollection({ name: collection });
      await index.add([chunk('c-2', 'Walrus tusks are canine teeth.')]);
      expect(await index.count({})).to.equal(1);
      await client.deleteCollection({ name: collection });
      await index.deleteBySession('s-1');
      await client.deleteCollection({ name: collection });
    });

    it('init() refuses an existing collection that does not use the cosine distance', async function () {
      const collection = `l2-${randomUUID()}`;
      const client = new ChromaClient({ host: server.host, port: server.port });
      await client.createCollection({ name: collection, embeddingFunction: null, configuration: { hnsw: { space: 'l2' } } });
      let error: unknown;
      try {
        await new ChromaVectorIndex({ url: server.url, collection }).init();
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/l2.*cosine/);
      await client.deleteCollection({ name: collection });
    });

    it('add() rejects a chunk without embedding before writing anything', async function () {
      const collection = `noemb-${randomUUID()}`;
      const index = new ChromaVectorIndex({ url: server.url, collection });
      let error: unknown;
      try {
        await index.add([{ id: 'x', sessionId: 's', jobId: 'j', filename: 'f.pdf', page: 1, ordinal: 0, text: 't', tags: {} }]);
      } catch (e) {
        error = e;
      }
      expect((error as Error).message).to.match(/embedding/);
      expect(await index.count({})).to.equal(0);
      await new ChromaClient({ host: server.host, port: server.port }).deleteCollection({ name: collection });
    });
  });
});

describe('ChromaVectorIndex without a server', function () {
  it('rejects with UpstreamUnavailableError, quickly, when nothing listens on the port', async function () {
    this.timeout(5_000);
    const port = await closedPort();
    const index = new ChromaVectorIndex({ url: `http://127.0.0.1:${port}`, collection: 'unreachable' });
    const embedding = new HashingEmbedder().embed('anything');
    const attempts: [string, () => Promise<unknown>][] = [
      ['init', () => index.init()],
      ['check', () => index.check()],
      ['search', () => index.search({ sessionId: 's', text: 'anything', embedding, limit: 3 })],
      ['add', () => index.add([{ id: 'a', sessionId: 's', jobId: 'j', filename: 'f', page: 1, ordinal: 0, text: 'anything', tags: {}, embedding }])],
      ['count', () => index.count({ sessionId: 's' })],
      ['deleteByJob', () => index.deleteByJob('j')],
      ['deleteBySession', () => index.deleteBySession('s')],
    ];
    for (const [name, attempt] of attempts) {
      const started = Date.now();
      let error: unknown;
      try {
        await attempt();
      } catch (e) {
        error = e;
      }
      expect(error, name).to.be.instanceOf(UpstreamUnavailableError);
      expect((error as UpstreamUnavailableError).dependency).to.equal('vector index');
      expect((error as UpstreamUnavailableError).code).to.equal('UPSTREAM_UNAVAILABLE');
      expect((error as Error).message).to.contain(`127.0.0.1:${port}`);
      expect((error as Error).cause, `${name} cause`).to.be.instanceOf(Error);
      expect(Date.now() - started, `${name} took`).to.be.below(2_000);
    }
  });

  it('gives up after timeoutMs when the server accepts connections but never answers', async function () {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const index = new ChromaVectorIndex({ url: `http://127.0.0.1:${port}`, collection: 'silent', timeoutMs: 300 });
      const started = Date.now();
      let error: unknown;
      try {
        await index.check();
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(UpstreamUnavailableError);
      expect((error as Error).message).to.match(/did not answer.*300 ms/);
      expect(Date.now() - started).to.be.below(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('refuses a bad url or collection name at construction', function () {
    expect(() => new ChromaVectorIndex({ url: 'http://127.0.0.1:8000/chroma', collection: 'chunks' })).to.throw(/path/);
    expect(() => new ChromaVectorIndex({ url: 'ftp://127.0.0.1', collection: 'chunks' })).to.throw(/http/);
    expect(() => new ChromaVectorIndex({ url: 'http://127.0.0.1:8000', collection: 'ab' })).to.throw(/collection name/);
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
