import { expect } from 'chai';
import type { DocumentTerms } from '../../../core/ports/vector-index.js';
import { DOCUMENT_PRIOR, documentPrior, fileNameWords, focusDocuments, referredPrior, withFileNameColumns } from '../../../core/rag/document-prior.js';

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

describe('file-name words', () => {
  const documents = [doc('r1', 4, 0), doc('r2', 6, 2), doc('tax', 700, 9)];
  const filenames = { r1: 'receipt_ikea_2016.jpg', r2: 'receipt_aldi_2020.jpg', tax: 'instructions-2007.pdf' };

  it('are the question’s words some file names hold but not all, with the documents they name', () => {
    expect(fileNameWords('How much did I pay at Ikea?', documents, filenames)).to.deep.equal([{ word: 'ikea', named: [true, false, false] }]);
    expect(fileNameWords('What is on the receipts from 2016?', documents, filenames), 'receipts: two of three (stemmed); 2016: one').to.deep.equal([
      { word: 'receipts', named: [true, true, false] }, { word: '2016', named: [true, false, false] },
    ]);
    expect(fileNameWords('What does the report say?', [doc('a', 3, 1), doc('b', 5, 0)], { a: 'report-a.pdf', b: 'report-b.pdf' }), 'every name holds it').to.deep.equal([]);
    expect(fileNameWords('What is the fee?', documents, filenames)).to.deep.equal([]);
    expect(fileNameWords('How much did I pay at Ikea?', documents)).to.deep.equal([]);
  });

  it('include the words a file name runs together ("Huck Finn" of scanned-huckfinn-p22.pdf)', () => {
    const scans = [doc('huck', 3, 0, 0), doc('dmca', 70, 5, 9)];
    const names = { huck: 'scanned-huckfinn-p22.pdf', dmca: 'dmca-summary-1998.pdf' };
    expect(fileNameWords('What happens on the Huck Finn page?', scans, names)).to.deep.equal([
      { word: 'huck', named: [true, false] }, { word: 'finn', named: [true, false] },
    ]);
    expect(fileNameWords('What does Huck say?', scans, names), 'one word of the run').to.deep.equal([]);
  });

  it('add a column each: every chunk of a document they name holds it, none of another’s; the named document leads', () => {
    const words = fileNameWords('How much did I pay at Ikea?', documents, filenames);
    expect(withFileNameColumns(documents, words)).to.deep.equal([doc('r1', 4, 0, 4), doc('r2', 6, 2, 0), doc('tax', 700, 9, 0)]);
    expect(documentPrior(withFileNameColumns(documents, words))!.get('r1')).to.equal(1);
    expect(withFileNameColumns(documents, [])).to.deep.equal(documents);
  });
});

describe('the documents a follow-up refers to', () => {
  const documents = [doc('notice', 10, 10, 0), doc('dmca', 10, 2, 8), doc('other', 10, 0, 0)];

  it('are the ones named, whatever the follow-up’s words point to', () => {
    expect(documentPrior(documents)!.get('dmca')).to.equal(1);
    const prior = referredPrior(documents, ['notice'])!;
    expect([...prior]).to.deep.equal([['notice', 1], ['dmca', 0], ['other', 0]]);
    expect(focusDocuments(prior)).to.deep.equal(['notice']);
  });

  it('tell nothing apart when none of them is counted, or all are', () => {
    expect(referredPrior(documents, ['gone'])).to.equal(undefined);
    expect(referredPrior(documents, [])).to.equal(undefined);
    expect(referredPrior(documents, ['notice', 'dmca', 'other'])).to.equal(undefined);
  });
});
