import { expect } from 'chai';
import { plainQuestion } from '../../../adapters/extractive/question-wording.js';

describe('a question in plain words (adapters/extractive/question-wording.ts)', () => {
  it('writes contractions out, one space between words', () => {
    expect(plainQuestion("What's the change in sales from 2018 to 2019?")).to.equal('What is the change in sales from 2018 to 2019?');
    expect(plainQuestion('  What  was the  revenue in 2019? ')).to.equal('What was the revenue in 2019?');
    expect(plainQuestion('What’re the components of revenue?')).to.equal('What are the components of revenue?');
  });

  it('reads "the growth rate of X" as its percentage change', () => {
    expect(plainQuestion('What was the growth rate of revenue from 2018 to 2019?')).to.equal('What was the percentage change in revenue from 2018 to 2019?');
  });

  it('leaves out the words that point at the documents themselves', () => {
    expect(plainQuestion('According to the table, what was the revenue in 2019?')).to.equal('What was the revenue in 2019?');
    expect(plainQuestion('Based on the annual report, how much was paid in rent?')).to.equal('How much was paid in rent?');
    expect(plainQuestion('What was the revenue in 2019 in the report?')).to.equal('What was the revenue in 2019?');
    expect(plainQuestion('What was the revenue in 2019 according to these documents')).to.equal('What was the revenue in 2019');
  });

  it('keeps them where they are what is asked about, and keeps an opening that names a period', () => {
    expect(plainQuestion('Which years are shown in the table?')).to.equal('Which years are shown in the table?');
    expect(plainQuestion('What does the table represent in the report?')).to.equal('What does the table represent in the report?');
    expect(plainQuestion('In 2019, what was the revenue?')).to.equal('In 2019, what was the revenue?');
    expect(plainQuestion('What is the table of contents?')).to.equal('What is the table of contents?');
  });
});
