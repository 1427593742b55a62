import { expect } from 'chai';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import { statedInProse } from '../../../adapters/extractive/stated-in-prose.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passage = (text: string): ContextPassage => ({ ref: '1', filename: 'report.pdf', page: 4, text, score: 1 });
const PLACE = { filename: 'report.pdf', page: 4 };
// As a report prints it (TAT-QA dev): the company's row in the table, a segment's figure in the prose under it.
const PAGE = [
  '2021 2020 Increase (Decrease)',
  'In-game net bookings $3,366 $4,203 $(837)',
  'Net bookings $6,388 $7,262 $(874)',
  'The decrease in in-game net bookings for 2021 was primarily due to Northwind, whose in-game net bookings were $1,250 million in 2021.',
  'Northwind opened its second harbour office on August 31, 2021.',
].join('\n');

describe('a figure stated in prose more fully than the table row names it', () => {
  it('is the sentence holding every question word the row holds and more, with an amount (not a date’s day)', () => {
    const request = { question: '', contexts: [passage(PAGE)], history: [] };
    expect(statedInProse(request, 'What were the Northwind in-game net bookings in 2021?', 'In-game net bookings 2021 2020', PLACE)).to.match(/^The decrease in in-game net bookings/);
    // The row names all the question asks: the row answers.
    expect(statedInProse(request, 'What were the in-game net bookings in 2021?', 'In-game net bookings 2021 2020', PLACE)).to.equal(undefined);
    // An amount before a word ("$75 million") is one; a date's day and no amount states no figure.
    const sold = { question: '', history: [], contexts: [passage('In 2021, $75 million of trade receivables were sold without recourse (nil in 2020).')] };
    expect(statedInProse(sold, 'How much of trade receivables was sold without recourse in 2021?', 'Trade receivables 2021 2020', PLACE)).to.match(/^In 2021, \$75 million/);
    expect(statedInProse(request, 'What was the Northwind harbour office count in 2021?', 'Harbour office count 2021 2020', PLACE)).to.equal(undefined);
    // Only the row's own page is looked at: another page may use the same words of another figure.
    expect(statedInProse(request, 'What were the Northwind in-game net bookings in 2021?', 'In-game net bookings 2021 2020', { filename: 'report.pdf', page: 5 })).to.equal(undefined);
  });

  it('answers first, before the row the table reader or a skill would read', async () => {
    const answer = await new ExtractiveAnswerer().answer({ question: 'What were the Northwind in-game net bookings in 2021?', contexts: [passage(PAGE)], history: [] });
    expect(answer.text).to.match(/^“The decrease in in-game net bookings for 2021 was primarily due to Northwind, whose in-game net bookings were \$1,250 million in 2021\./);
    const row = await new ExtractiveAnswerer().answer({ question: 'What were the in-game net bookings in 2021?', contexts: [passage(PAGE)], history: [] });
    expect(row.text.split('\n')[0]).to.equal('In-game net bookings, 2021: $3,366');
  });
});
