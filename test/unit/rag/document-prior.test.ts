import { expect } from 'chai';
import type { DocumentTerms } from '../../../core/ports/vector-index.js';
import { DOCUMENT_PRIOR, documentPrior, focusDocuments } from '../../../core/rag/document-prior.js';

const doc = (jobId: string, chunks: number, ...holding: number[]): DocumentTerms => ({ jobId, chunks, holding });

describe('documentPrior', () => {
  it('points to the document most of whose chunks hold a word the others hardly hold', () => {
    // "acme" in 90 of Acme's 100 chunks and in 1 of Globex's (a competitor named once); "revenue" all over both.
    const prior = documentPrior([doc('acme', 100, 90, 40), doc('globex', 200, 1, 90), doc('initech', 50, 0, 20)])!;
    expect(prior.get('acme')).to.equal(1);
    expect(prior.get('globex')).to.be.below(0.5);
    expect(prior.get('initech')).to.be.below(0.5);
    expect(focusDocuments(prior)).to.deep.equal(['acme']);
  });

  it('gives no prior for one document, for words every document holds alike, or for no word held', () => {
    expect(documentPrior([doc('only', 10, 5)])).to.equal(undefined);
    expect(documentPrior([])).to.equal(undefined);
    expect(documentPrior([doc('a', 10, 5, 10), doc('b', 40, 20, 40)]), 'the same shares').to.equal(undefined);
    expect(documentPrior([doc('a', 10, 0), doc('b', 40, 0)])).to.equal(undefined);
    expect(documentPrior([doc('a', 0), doc('b', 0)]), 'no words').to.equal(undefined);
  });

  it('weighs a word by how few documents hold it: a name one document holds beats a term most hold', () => {
    // Word 0 (a name) only in "named"; word 1 in every document but "named", densely.
    const prior = documentPrior([doc('named', 20, 18, 0), doc('b', 20, 0, 18), doc('c', 20, 0, 18), doc('d', 20, 0, 18)])!;
    expect(focusDocuments(prior)).to.deep.equal(['named']);
  });

  it('keeps every document close to the best in the focus, best first, and counts a document of no chunks as holding nothing', () => {
    // Two companies named in one question: both hold their own name, so both are near the top.
    const prior = documentPrior([doc('empty', 0, 0, 0), doc('acme', 100, 80, 0), doc('globex', 100, 0, 85), doc('initech', 100, 0, 0)])!;
    expect(prior.get('empty')).to.equal(0);
    expect(prior.get('globex')).to.equal(1);
    expect(prior.get('acme')).to.be.at.least(DOCUMENT_PRIOR.focus);
    expect(focusDocuments(prior)).to.deep.equal(['globex', 'acme']);
  });
});
