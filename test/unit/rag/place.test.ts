import { expect } from 'chai';
import type { Chunk } from '../../../core/domain/model.js';
import { packContexts, toSources } from '../../../core/rag/context.js';
import { passagePlace } from '../../../core/rag/place.js';
import { buildGroundedMessages } from '../../../core/rag/prompt.js';

const chunk = (jobId: string, page: number, text: string): Chunk => ({
  id: `${jobId}:${page}`, sessionId: 's', jobId, filename: `${jobId}.file`, page, ordinal: page - 1, text, tags: {},
});

describe('Where a passage is (units of documents without pages)', () => {
  it('names a unit by its label and a page by its number', () => {
    expect(passagePlace({ filename: 'budget.xlsx', page: 3, unit: 'Sheet Q3' })).to.equal('budget.xlsx, Sheet Q3');
    expect(passagePlace({ filename: 'report.pdf', page: 3 })).to.equal('report.pdf, page 3');
    expect(passagePlace({ filename: 'notes.txt', page: 2, unit: '' })).to.equal('notes.txt, page 2');
  });

  it('packs each hit with its document’s unit label by page, and the sources carry it; other documents’ do not', () => {
    const hits = [
      { chunk: chunk('book', 2, 'Rent rose to 4,800 euros.'), score: 2 },
      { chunk: chunk('scan', 2, 'Rent was 4,000 euros.'), score: 1 },
      { chunk: chunk('book', 3, 'Notes on rent.'), score: 0.5 },
    ];
    const packed = packContexts(hits, 5, 10_000, { book: ['Sheet Q1', 'Sheet Q3', ''] });
    expect(packed.passages.map((p) => p.unit)).to.deep.equal(['Sheet Q3', undefined, undefined]);
    const sources = toSources(packed, { usedRefs: ['1', '2'], markers: { 1: 1, 2: 2 } }, 5);
    expect(sources.map((s) => [s.filename, s.page, s.unit])).to.deep.equal([
      ['book.file', 2, 'Sheet Q3'], ['scan.file', 2, undefined], ['book.file', 3, undefined],
    ]);
    expect(sources[1]).to.not.have.property('unit');
  });

  it('tells a model the unit in place of the page', () => {
    const contexts = [{ ref: '1', filename: 'budget.xlsx', page: 2, unit: 'Sheet "Q3"', text: 'Rent rose.', score: 1 }];
    const user = buildGroundedMessages({ question: 'Rent?', contexts, history: [] }).at(-1)!;
    expect(user.content).to.include('<document ref="1" file="budget.xlsx" unit="Sheet &quot;Q3&quot;">\nRent rose.\n</document>');
  });
});
