import { expect } from 'chai';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import { withAlsoFound } from '../../../adapters/extractive/table-answer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passage = (ref: string, text: string, filename = 'report.pdf', page = 1): ContextPassage => ({ ref, filename, page, text, score: 1 });

const STATEMENT = `CONSOLIDATED STATEMENTS OF INCOME
(In millions except per share data) 2020 2019 2018
Net Operating Revenues $ 33,014 $ 37,266 $ 34,300
Other income (loss) — net 841 34 (1,674)
Consolidated Net Income 7,768 8,985 6,476`;

const PROSE = 'Net income in 2019 rose on the sale of the bottling operations in Africa, which added a gain of $1.1 billion.';

describe('ExtractiveAnswerer with tables read as tables', () => {
  const answerer = new ExtractiveAnswerer();

  it('leads with the figure from the row the question names, quotes that row, and puts the sentences under "Also found"', async () => {
    const answer = await answerer.answer({ question: 'What was the net income in 2019?', history: [], contexts: [passage('1', STATEMENT), passage('2', PROSE, 'letter.pdf', 3)] });
    const [lead, quote, also, sources] = answer.text.split('\n\n');
    expect(lead).to.equal('Consolidated Net Income, 2019: $8,985 million');
    expect(quote).to.equal('“(In millions except per share data) 2020 2019 2018 | Consolidated Net Income 7,768 8,985 6,476” [1]');
    expect(also).to.match(/^Also found: .*“Net income in 2019 rose/);
    expect(sources).to.equal('Sources: [1] report.pdf, page 1; [2] letter.pdf, page 3');
    expect(answer.markers).to.deep.include({ 1: 1, 2: 2 });
    expect(answer.quotes?.['1']).to.include('Consolidated Net Income 7,768 8,985 6,476');
  });

  it('leaves out of "Also found" the rows its quote shows of the same page, keeping their header with a row left, and a quote left empty', async () => {
    const ask = (contexts: ContextPassage[]) => answerer.answer({ question: 'What was the net income in 2019?', history: [], contexts });
    const [, quote, also, sources] = (await ask([passage('1', STATEMENT), passage('2', PROSE, 'letter.pdf', 3)])).text.split('\n\n');
    expect(quote).to.equal('“(In millions except per share data) 2020 2019 2018 | Consolidated Net Income 7,768 8,985 6,476” [1]');
    expect(also).to.include('“(In millions except per share data) 2020 2019 2018 … Other income (loss) — net 841 34 (1,674)” [1]');
    expect(also.match(/Consolidated Net Income/g), 'the answer’s row once, in its own quote').to.equal(null);
    expect(sources).to.equal('Sources: [1] report.pdf, page 1; [2] letter.pdf, page 3');
    // The same row printed in another document is something else found: it stays, under its own number.
    const copy = '(In millions except per share data) 2020 2019 2018\nConsolidated Net Income 7,768 8,985 6,476';
    const withCopy = await ask([passage('1', STATEMENT), passage('3', copy, 'summary.pdf', 2), passage('2', PROSE, 'letter.pdf', 3)]);
    expect(withCopy.text).to.include('“Consolidated Net Income 7,768 8,985 6,476” [3]').and.include('[3] summary.pdf, page 2');
    // A quote of the table's page with nothing but what the table's quote shows goes, and the sources close up.
    const table = { text: 'Row, 2019: 5\n\n“Item 2019 2018 | Row 5 4” [1]\n\nSources: [1] a.pdf, page 1', usedRefs: ['a'], markers: { a: 1 }, quotes: { a: 'Row 5 4' } };
    const sentences = {
      text: '“A sentence about the row.” [1] “Item 2019 2018 … Row 5 4” [2]\n\nAlso found: “Another one.” [3]\n\nSources: [1] b.pdf, page 2; [2] a.pdf, page 1; [3] c.pdf, page 9',
      usedRefs: ['b', 'a', 'c'], markers: { b: 1, a: 2, c: 3 }, quotes: { b: 'A sentence about the row.', a: 'Row 5 4', c: 'Another one.' },
    };
    const merged = withAlsoFound(table, sentences);
    expect(merged.text.split('\n\n').slice(2)).to.deep.equal(['Also found: “A sentence about the row.” [2] “Another one.” [3]', 'Sources: [1] a.pdf, page 1; [2] b.pdf, page 2; [3] c.pdf, page 9']);
    expect(merged.markers).to.deep.equal({ a: 1, b: 2, c: 3 });
    expect(withAlsoFound(table, { ...sentences, text: '“Item 2019 2018 … Row 5 4” [1]\n\nSources: [1] a.pdf, page 1', usedRefs: ['a'], markers: { a: 1 } }).text).to.equal(table.text);
  });

  it('reads a table the chunking split as one, its rows from the passage that prints them', async () => {
    // The table's last row in a chunk of its own, under the title and header repeated (core/rag/chunking.ts).
    const lines = STATEMENT.split('\n');
    const first = passage('1', lines.slice(0, 4).join('\n'));
    const rest = { ...passage('2', [...lines.slice(0, 2), lines[4]].join('\n')), continues: '1' };
    const ask = (contexts: ContextPassage[]) => answerer.answer({ question: 'What was the percentage change in net income from 2018 to 2019?', history: [], contexts });
    const joined = await ask([rest, first]);
    expect(joined.text.split('\n')[0]).to.equal('Percentage change in Consolidated Net Income from 2018 to 2019: 38.74% ((8,985 − 6,476) / 6,476 = 38.74%)');
    expect(joined.usedRefs[0]).to.equal('2');
    // Alone, the part holding the row is no table (a table has two rows at least).
    const { continues: _, ...alone } = rest;
    expect((await ask([alone, first])).text.split('\n')[0]).to.not.include('38.74%');
  });

  it('judges a sum over rows in two parts of a split table by what both parts name', async () => {
    // Each part under its own section: the first names none of the second's row, which the cited part lacks.
    const first = passage('1', 'Net revenues by nature\n2019 2018\nSale of products 9,381 9,461\nOther revenues 27 52\nTotal revenues 9,408 9,513');
    const rest = { ...passage('2', '2019 2018\nNet revenues by channel\nWholesale 6,720 6,325\nDistribution 2,688 3,188\nTotal revenues 9,408 9,513'), continues: '1' };
    const answer = await answerer.answer({ question: 'What was the sum of other revenues and distribution in 2019?', history: [], contexts: [first, rest] });
    expect(answer.text.split('\n')[0]).to.equal('Sum of Other revenues and Distribution, 2019: 2,715 (27 + 2,688 = 2,715)');
  });

  it('reads a figure asked in a few words, as typed in a search box, as "What was …?"', async () => {
    const ask = async (question: string) => (await answerer.answer({ question, history: [], contexts: [passage('1', STATEMENT)] })).text.split('\n')[0];
    for (const question of ['Consolidated net income in 2019?', 'Consolidated net income 2019', 'Give me the consolidated net income for 2019.']) {
      expect(await ask(question), question).to.equal('Consolidated Net Income, 2019: $8,985 million');
    }
    expect(await ask('Why did consolidated net income rise in 2019?')).to.not.match(/^Consolidated Net Income, 2019/);
    // "How did X change from 2019 to 2020?" asks how much; "How did X change?" asks why, of the sentences.
    expect(await ask('How did consolidated net income change from 2018 to 2019?')).to.match(/^Change in Consolidated Net Income from 2018 to 2019: \$2,509 million/);
    expect(await ask('How did consolidated net income change?')).to.not.match(/^Change in/);
    // "vs" says which periods, as "compared to" does.
    expect(await ask('What was the change in consolidated net income 2019 vs 2018?')).to.match(/^Change in Consolidated Net Income from 2018 to 2019: \$2,509 million/);
  });

  it('reads a compound of the row’s label word by word: "Tax-related accruals" asks nothing "related"', async () => {
    const text = '2021 2020\nTax-related accruals 30.8 38.4\nAccrued other 33.3 44.8';
    const ask = async (question: string) => (await answerer.answer({ question, history: [], contexts: [passage('1', text)] })).text.split('\n')[0];
    expect(await ask('What was the change in Tax-related accruals from 2020 to 2021?')).to.equal('Change in Tax-related accruals from 2020 to 2021: −7.6 (30.8 − 38.4 = −7.6)');
  });

  it('reads "mean" as an average, and "What does X mean?" as asking what X is', async () => {
    const ask = async (question: string) => (await answerer.answer({ question, history: [], contexts: [passage('1', STATEMENT)] })).text.split('\n')[0];
    expect(await ask('What is the mean Consolidated Net Income?')).to.equal('Average Consolidated Net Income, 2020, 2019, 2018: $7,743 million ((7,768 + 8,985 + 6,476) / 3 = 7,743)');
    expect(await ask('What does Consolidated Net Income mean?')).to.not.include('Average');
  });

  it('computes what the question asks and shows how', async () => {
    const answer = await answerer.answer({ question: 'What was the percentage change in consolidated net income from 2018 to 2019?', history: [], contexts: [passage('1', STATEMENT)] });
    expect(answer.text.split('\n')[0]).to.equal('Percentage change in Consolidated Net Income from 2018 to 2019: 38.74% ((8,985 − 6,476) / 6,476 = 38.74%)');
  });

  it('leaves to the sentences a question that asks why, or what a line item is', async () => {
    for (const question of ['Why did net income rise in 2019?', 'What is Consolidated Net Income?']) {
      const answer = await answerer.answer({ question, history: [], contexts: [passage('1', STATEMENT), passage('2', PROSE, 'letter.pdf', 3)] });
      expect(answer.text, question).to.match(/^“/);
    }
  });

  it('reads the question set after a preamble by its own words, for the row and for what supports it', async () => {
    const question = 'We need to calculate a metric by using information only provided within the statement. Please answer the following question: what is the consolidated net income in 2019?';
    const answer = await answerer.answer({ question, history: [], contexts: [passage('1', STATEMENT)] });
    expect(answer.text.split('\n')[0]).to.equal('Consolidated Net Income, 2019: $8,985 million');
  });

  it('reads "What was X?" of the rows it names as asking for their figures, the latest period when none is named', async () => {
    const answer = await answerer.answer({ question: 'What was the consolidated net income?', history: [], contexts: [passage('1', STATEMENT)] });
    expect(answer.text.split('\n')[0]).to.equal('Consolidated Net Income, 2020: $7,768 million');
  });
});
