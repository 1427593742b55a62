import { expect } from 'chai';
import { HashingEmbedder } from '../fakes/hashing-embedder.js';
import { InMemoryVectorIndex } from '../fakes/in-memory-vector-index.js';
import { vectorIndexContract } from './vector-index.contract.js';

vectorIndexContract('InMemoryVectorIndex (lexical)', async () => ({
  index: new InMemoryVectorIndex({ kind: 'lexical' }),
  cleanup: async () => {},
}));

vectorIndexContract('InMemoryVectorIndex (dense)', async () => ({
  index: new InMemoryVectorIndex({ kind: 'dense' }),
  cleanup: async () => {},
}));

describe('HashingEmbedder (the contract’s stand-in for a model)', function () {
  const embedder = new HashingEmbedder();
  const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i], 0);

  it('is deterministic, 256-dimensional and L2-normalised', async function () {
    const [a] = await embedder.embedDocuments(['Glaciers retreat in the Alps.']);
    const b = await embedder.embedQuery('Glaciers retreat in the Alps.');
    expect(a).to.deep.equal(b);
    expect(a).to.have.length(256);
    expect(cosine(a, a)).to.be.closeTo(1, 1e-9);
  });

  it('makes texts sharing words closer than texts that do not', async function () {
    const query = embedder.embed('alpine glaciers retreat');
    expect(cosine(query, embedder.embed('Alpine GLACIERS retreat every summer.'))).to.be.greaterThan(
      cosine(query, embedder.embed('Mortgage interest rates rose again.')) + 0.3,
    );
  });

  it('gives a unit vector even to a text without words', function () {
    const v = embedder.embed(' … ');
    expect(cosine(v, v)).to.be.closeTo(1, 1e-9);
  });
});
