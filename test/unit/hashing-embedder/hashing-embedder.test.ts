import { expect } from 'chai';
import { HashingEmbedder } from '../../../adapters/hashing-embedder/index.js';

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder(256);

  it('gives unit vectors of the configured length, the same for a document and a query of the same text', async () => {
    const [doc] = await embedder.embedDocuments(['International wire transfers cost 45 dollars.']);
    const query = await embedder.embedQuery('International wire transfers cost 45 dollars.');
    expect(doc).to.have.length(256);
    expect(Math.hypot(...doc)).to.be.closeTo(1, 1e-9);
    expect(query).to.deep.equal(doc);
  });

  it('scores a text about the same thing above an unrelated one, and gives inflections partial credit', async () => {
    const [fees, weather, statements] = await embedder.embedDocuments([
      'The monthly maintenance fee is waived with a minimum balance.',
      'Heavy rain is expected over the northern coast tomorrow.',
      'Consolidated statements of cash flows',
    ]);
    const question = await embedder.embedQuery('What is the monthly maintenance fee?');
    expect(dot(question, fees)).to.be.greaterThan(dot(question, weather) + 0.2);
    // "statement" and "statements" share no whole word but most trigrams.
    expect(dot(await embedder.embedQuery('cash flow statement'), statements)).to.be.greaterThan(0.4);
  });

  it('gives one fixed unit vector for text without words, and refuses a tiny dimension', async () => {
    const empty = await embedder.embedQuery(' -- ');
    expect(Math.hypot(...empty)).to.equal(1);
    expect(await embedder.embedQuery('')).to.deep.equal(empty);
    expect(() => new HashingEmbedder(8)).to.throw(RangeError);
  });
});
