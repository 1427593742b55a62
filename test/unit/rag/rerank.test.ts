import { expect } from 'chai';
import type { ChunkHit } from '../../../core/ports/vector-index.js';
import { proximity, rerank, RERANK_FEATURES, rerankFeatures, RERANK_WEIGHTS } from '../../../core/rag/rerank.js';

function hit(id: string, text: string, score: number, filename = 'doc.pdf'): ChunkHit {
  return { chunk: { id, sessionId: 's', jobId: 'j', filename, page: 1, ordinal: 0, text, tags: {} }, score };
}

describe('rerank', () => {
  const question = 'When did the Apollo program land on the Moon?';
  const hits = [
    // BM25's favourite repeats one word; the second holds every question term, as a phrase.
    hit('a', 'Moon Moon Moon. The Moon is bright and the Moon is far. Many poems praise the Moon.', 10),
    hit('b', 'Unrelated text about rivers and bridges.', 9),
    hit('c', 'The Apollo program landed on the Moon in July 1969.', 8),
  ];

  it('gives one feature per RERANK_FEATURES entry, each in 0..1, and one weight per feature', () => {
    const features = rerankFeatures(question, hits);
    expect(features).to.have.length(3);
    for (const x of features) {
      expect(x).to.have.length(RERANK_FEATURES.length);
      for (const v of x) expect(v).to.be.within(0, 1);
    }
    expect(RERANK_WEIGHTS).to.have.length(RERANK_FEATURES.length);
  });

  it('scores coverage, bigrams and best sentence higher for the chunk holding the question terms together', () => {
    const [a, , c] = rerankFeatures(question, hits);
    const at = (x: number[], name: (typeof RERANK_FEATURES)[number]) => x[RERANK_FEATURES.indexOf(name)];
    expect(at(a, 'bm25')).to.equal(1);
    expect(at(c, 'termShare')).to.equal(1);
    expect(at(c, 'bigrams')).to.be.greaterThan(at(a, 'bigrams'));
    expect(at(c, 'bestSentence')).to.be.greaterThan(at(a, 'bestSentence'));
    expect(at(c, 'coverage')).to.be.greaterThan(at(a, 'coverage'));
  });

  it('re-orders by the weighted features and keeps every hit with its own score', () => {
    const ranked = rerank(question, hits);
    expect(ranked.map((h) => h.chunk.id)).to.have.members(['a', 'b', 'c']);
    expect(ranked[0].chunk.id).to.equal('c');
    expect(ranked.find((h) => h.chunk.id === 'c')!.score).to.equal(8);
  });

  it('keeps BM25 order with weights on the BM25 score alone, and handles no hits', () => {
    const bm25Only = RERANK_FEATURES.map((f) => (f === 'bm25' ? 1 : 0));
    expect(rerank(question, hits, bm25Only).map((h) => h.chunk.id)).to.deep.equal(['a', 'b', 'c']);
    expect(rerank(question, [])).to.deep.equal([]);
  });

  it('credits a file named for the question topic', () => {
    const named = [hit('x', 'It opened in 1911.', 5, '07-Apollo-program.pdf'), hit('y', 'It opened in 1911.', 5, 'other.pdf')];
    const [x, y] = rerankFeatures('Apollo program opening', named);
    const at = RERANK_FEATURES.indexOf('filename');
    expect(x[at]).to.be.greaterThan(0);
    expect(y[at]).to.equal(0);
  });
});

describe('proximity', () => {
  it('is distinct matched terms over the shortest window holding them all', () => {
    const asked = new Set(['apollo', 'moon']);
    expect(proximity(['apollo', 'moon', 'x', 'x'], asked)).to.equal(1);
    expect(proximity(['apollo', 'x', 'x', 'moon', 'x', 'apollo'], asked)).to.equal(2 / 3);
    expect(proximity(['apollo', 'x'], asked)).to.equal(1);
    expect(proximity(['x', 'y'], asked)).to.equal(0);
  });
});

describe('rerank with a question-shaped heading', () => {
  it('puts first the chunk under the heading the question repeats, though its words alone score lower', () => {
    const hits = [
      hit('a', 'Apply for a ferry pass at the harbour office. A pass holder must apply again each year for a ferry pass.', 9),
      hit('b', 'Timetables\nThe first ferry leaves at six.\nWho Must Apply\nEvery commuter who crosses more than twice a week.', 3),
    ];
    expect(rerank('Who must apply for a ferry pass?', hits).map((h) => h.chunk.id)).to.deep.equal(['b', 'a']);
    expect(rerank('How do I apply for a ferry pass?', hits)[0].chunk.id, 'no heading repeated').to.equal('a');
  });
});

describe('rerank with a topic heading', () => {
  // NIKE_2018_10K.pdf: the section "Employees" (page 7) against the exhibits' employment agreements.
  const hits = [
    hit('exhibit', 'If EMPLOYEE terminates employment, NIKE shall pay EMPLOYEE fifty percent of EMPLOYEE’s salary.', 9, 'NIKE_2018_10K.pdf'),
    hit('section', 'Patents\nWe protect our trademarks.\nEmployees\nAs of May 31, 2018, we had approximately 73,100 employees worldwide.', 4, 'NIKE_2018_10K.pdf'),
  ];

  it('puts first the chunk whose own heading names the question’s topic', () => {
    expect(rerank('How many employees does Nike have?', hits).map((h) => h.chunk.id)).to.deep.equal(['section', 'exhibit']);
  });

  it('leaves a heading of words the question does not ask, or of the file name’s, to the features', () => {
    expect(rerank('What does Nike pay under the agreement?', hits)[0].chunk.id, 'not asked').to.equal('exhibit');
    expect(rerank('What does Nike pay a former employee under the agreement?', hits)[0].chunk.id, 'the question’s topic is more').to.equal('exhibit');
    const titled = [hits[0], hit('title', 'Nike\nNike makes shoes and its employees design them.', 4, 'NIKE_2018_10K.pdf')];
    expect(rerank('What does Nike pay employees?', titled)[0].chunk.id, 'the document’s own name').to.equal('exhibit');
  });
});

