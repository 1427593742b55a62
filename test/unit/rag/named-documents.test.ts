import { expect } from 'chai';
import type { HistoryTurn } from '../../../core/ports/llm.js';
import { followUpNames } from '../../../core/rag/follow-up.js';
import { documentsNamedBy, MAX_TITLE_CHARS, titleLine } from '../../../core/rag/named-documents.js';

const history: HistoryTurn[] = [
  { role: 'user', content: 'What was the net income of Northwind in 2019?' },
  { role: 'assistant', content: 'Consolidated Net Income, 2019: $8,985 million', cited: ['a'] },
];
const documents = [
  { jobId: 'a', filename: 'report-a.pdf', title: 'NORTHWIND ANNUAL REPORT' },
  { jobId: 'b', filename: 'report-b.pdf', title: 'CONTOSO ANNUAL REPORT 2019' },
  { jobId: 'c', filename: 'coca-cola-10k.pdf' },
];

describe('the documents a follow-up names (core/rag/named-documents.ts)', () => {
  it('takes the names a follow-up gives of its own, and none of a question that stands alone', () => {
    expect(followUpNames('What about Contoso?', history)).to.deep.equal(['Contoso']);
    expect(followUpNames('And IBM?', history)).to.deep.equal(['IBM']);
    expect(followUpNames('And the year before?', history)).to.deep.equal([]);
    expect(followUpNames('Who founded Contoso and when did Fabrikam buy it?', history)).to.deep.equal([]);
  });

  it('finds the documents whose file name or title holds every word of a name', () => {
    expect(documentsNamedBy(['Contoso'], documents)).to.deep.equal(['b']);
    expect(documentsNamedBy(['Northwind'], documents)).to.deep.equal(['a']);
    expect(documentsNamedBy(['Coca-Cola'], documents)).to.deep.equal(['c']);
    expect(documentsNamedBy(['Fabrikam'], documents)).to.deep.equal([]);
  });

  it('names none when every document holds the name: it tells none apart', () => {
    expect(documentsNamedBy(['Annual'], documents.slice(0, 2))).to.deep.equal([]);
    expect(documentsNamedBy([], documents)).to.deep.equal([]);
  });

  it('reads a title from a text\'s first line, not from a first line of prose', () => {
    expect(titleLine('\nCONTOSO ANNUAL REPORT\nThe year in review.')).to.equal('CONTOSO ANNUAL REPORT');
    expect(titleLine(`${'word '.repeat(MAX_TITLE_CHARS / 5 + 1)}\nnext`)).to.equal(undefined);
  });
});
