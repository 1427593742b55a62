import { expect } from 'chai';
import { answerBlocks, markerOrder, tableOf } from '../../../web/src/answer-text.js';
import { answerForCopy, conversationMarkdown } from '../../../web/src/transcript.js';
import type { Source } from '../../../web/src/types.js';

const source = (marker: number, page: number, cited = true): Source => ({ filename: 'report.pdf', page, excerpt: `text of page ${page}`, score: 1, ingestId: 'j1', cited, marker });

describe('web app: the parts of an answer text', () => {
  it('leads with the direct line, keeps the supporting quote, folds "Also found" with its count, drops the Sources line', () => {
    const text = 'Net income, 2019: $8,985 million\n\n“Consolidated Net Income 7,768 8,985 6,476” [1]\n\nAlso found: “Net income rose.” [2] “It fell in 2018.” [3]\n\nSources: [1] report.pdf, page 52; [2] report.pdf, page 3; [3] report.pdf, page 9';
    expect(answerBlocks(text)).to.deep.equal([
      { kind: 'lead', text: 'Net income, 2019: $8,985 million' },
      { kind: 'text', text: '“Consolidated Net Income 7,768 8,985 6,476” [1]' },
      { kind: 'folded', label: 'Also found', count: 2, blocks: [{ kind: 'text', text: '“Net income rose.” [2] “It fell in 2018.” [3]' }] },
    ]);
  });

  it('shows a not-found line plainly and its closest passages folded', () => {
    const text = 'I could not find this in your documents.\n\nClosest found: “continental France” [1]\n\nSources: [1] bottler.pdf, page 7';
    const blocks = answerBlocks(text);
    expect(blocks[0]).to.deep.equal({ kind: 'not-found', text: 'I could not find this in your documents.' });
    expect(blocks[1]).to.include({ kind: 'folded', label: 'Closest found', count: 1 });
    expect(blocks).to.have.length(2);
  });

  it('does not lead with a quotation: an answer of quotes alone is evidence, not a direct line', () => {
    expect(answerBlocks('“The ferry does not run on Sundays.” [1]\n\nSources: [1] t.pdf, page 3')).to.deep.equal([
      { kind: 'text', text: '“The ferry does not run on Sundays.” [1]' },
    ]);
  });

  it('reads a Markdown table as rows and cells, with or without a header rule; other text is no table', () => {
    expect(tableOf('| Year | Revenue |\n|---|---:|\n| 2019 | 37,266 |\n| 2018 | 34,300 |')).to.deep.equal({
      kind: 'table', header: true, rows: [['Year', 'Revenue'], ['2019', '37,266'], ['2018', '34,300']],
    });
    expect(tableOf('| a | b |\n| c | d |')).to.deep.equal({ kind: 'table', header: false, rows: [['a', 'b'], ['c', 'd']] });
    expect(tableOf('Net income | 8,985 | 6,476')).to.equal(undefined);
    expect(answerBlocks('Revenue by year:\n\n| Year | Revenue |\n|---|---|\n| 2019 | 37,266 |')[1]).to.include({ kind: 'table', header: true });
  });

  it('orders the marks as the text first cites them, leaving out quoted brackets and the Sources line', () => {
    expect(markerOrder('Lead [2]\n\n“SUMME [3] EUR” [1] and [2]\n\nSources: [4] a.pdf, page 1')).to.deep.equal([2, 1]);
  });
});

describe('web app: an answer copied or exported', () => {
  it('keeps the extractive Sources line; adds one from the sources to an answer without (a model)', () => {
    const extractive = '“Fee 45 dollars.” [1]\n\nSources: [1] fees.pdf, page 2';
    expect(answerForCopy(extractive, [source(1, 2)])).to.equal(extractive);
    expect(answerForCopy('The fee is 45 dollars [1].', [source(1, 2), source(1, 2), source(2, 4, false)])).to.equal(
      'The fee is 45 dollars [1].\n\nSources: [1] report.pdf, page 2',
    );
    expect(answerForCopy('Nothing cited.', [])).to.equal('Nothing cited.');
  });

  it('exports a conversation as Markdown: the title, each question, each answer with its sources', () => {
    const markdown = conversationMarkdown('Fees 2024', [
      { role: 'user', content: 'What is the fee?', createdAt: '2026-01-02T10:00:00Z' },
      { role: 'assistant', content: 'The fee is 45 dollars [1].', sources: [source(1, 2)] },
    ]);
    expect(markdown).to.equal('# Fees 2024\n\n## Question (2026-01-02T10:00:00Z)\n\nWhat is the fee?\n\n### Answer\n\nThe fee is 45 dollars [1].\n\nSources: [1] report.pdf, page 2\n');
  });
});
