import { expect } from 'chai';
import { absentNames, absentYears, isWeakMatchAnswer, nearSpelling, notFoundNote, offeredAnswer, questionNames } from '../../../adapters/extractive/absent-names.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { isNotFoundAnswer, NOT_FOUND_ANSWER } from '../../../core/rag/prompt.js';

const passage = (text: string, filename = 'doc.pdf', ref = '1'): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });
const TEN_Q = passage(
  'Liquidity and Capital Resources. We periodically review our capital structure and our use of capital to maximize value for shareholders.',
  'AMCOR_2023Q2_10Q.pdf',
);

describe('names of a question that no passage holds', () => {
  it('takes capitalised words that do not open a sentence for names, without a possessive ending', () => {
    expect(questionNames('What is the capital of France?')).to.deep.equal(['France']);
    expect(questionNames("Who founded Costco's first warehouse in Seattle, Washington?")).to.deep.equal(['Costco', 'Seattle', 'Washington']);
    expect(questionNames('What is the FY2018 capex in USD millions for 3M? Give a response from the cash flow statement.')).to.deep.equal([]);
    expect(questionNames('When did "Gandhi" return? Answer: briefly.')).to.deep.equal(['Gandhi']);
  });

  it('tells slips of spelling from other words', () => {
    expect(nearSpelling('gandhi', 'ghandi')).to.equal(true); // one letter moved
    expect(nearSpelling('bendigo', 'bedigo')).to.equal(true); // one edit
    expect(nearSpelling('france', 'finance')).to.equal(false);
    expect(nearSpelling('salt', 'malt')).to.equal(false); // too short for one edit to be a slip
  });

  it('names the question’s names that no passage holds when they are most of them', () => {
    expect(absentNames('What is the capital of France?', [TEN_Q])).to.deep.equal(['France']);
    expect(absentNames('Did Paris or Berlin host Amcor’s meeting?', [TEN_Q])).to.deep.equal(['Paris', 'Berlin']);
    expect(absentNames('Did Amcor or Berlin review the capital structure?', [TEN_Q]), 'half of them found').to.equal(undefined);
  });

  it('finds a name in a passage, misspelt, or in the file name of a passage’s document', () => {
    expect(absentNames('What did Amcor say about capital?', [passage('Amcor plc reviews its capital structure.')])).to.equal(undefined);
    expect(absentNames('When did Ghandi return to India?', [passage('Gandhi returned to India in 1915.')])).to.equal(undefined);
    expect(absentNames('How does Amcor review its capital structure?', [TEN_Q])).to.equal(undefined); // AMCOR_2023Q2_10Q.pdf
    expect(absentNames('What is the capital structure?', [TEN_Q]), 'no names asked about').to.equal(undefined);
    expect(absentNames('What is the capital of France?', []), 'no passages: not found is said elsewhere').to.equal(undefined);
  });

  it('is said as "not found" first, naming what no passage mentions, with the closest passage shown as closest', () => {
    const note = notFoundNote(['France']);
    expect(note).to.equal(`${NOT_FOUND_ANSWER} None of the passages I found mentions France.`);
    expect(notFoundNote(['Paris', 'Berlin', 'Rome'])).to.contain('mentions Paris, Berlin or Rome.');
    expect(notFoundNote([])).to.equal(NOT_FOUND_ANSWER);
    const weak = `${note}\n\nClosest found: “We review our capital structure.” [1]\n\nSources: [1] q.pdf, page 2`;
    expect(isWeakMatchAnswer(weak)).to.equal(true);
    expect(isNotFoundAnswer(weak)).to.equal(true);
    expect(offeredAnswer(weak), 'the closest passage is not offered as the answer').to.equal('');
    expect(isWeakMatchAnswer(NOT_FOUND_ANSWER), 'nothing shown as closest').to.equal(false);
    expect(isWeakMatchAnswer('“We review our capital structure.” [1]')).to.equal(false);
    expect(offeredAnswer('“We review our capital structure.” [1]')).to.equal('“We review our capital structure.” [1]');
  });

  it('makes the extractive answer say not found before the closest passage, which it still cites', async () => {
    const answerer = new ExtractiveAnswerer();
    const weak = await answerer.answer({ question: 'What is the capital of France?', contexts: [TEN_Q], history: [] });
    expect(weak.text.startsWith(notFoundNote(['France'])), weak.text).to.equal(true);
    expect(weak.text).to.match(/\n\nClosest found: “[^”]*capital structure[^”]*” \[1\]\n\nSources: \[1\] AMCOR_2023Q2_10Q\.pdf, page 1$/);
    expect(weak.usedRefs).to.deep.equal(['1']);
    const sound = await answerer.answer({ question: 'How does Amcor review its capital structure?', contexts: [TEN_Q], history: [] });
    expect(isWeakMatchAnswer(sound.text), sound.text).to.equal(false);
    expect(sound.text).to.contain('capital structure');
  });
  it('names the years a question asks that no passage holds, in full, split or short; none when a passage holds one', async () => {
    const table = passage('(In thousands) 2021 2020\nFerry tickets 2,400 2,000\nSeason passes 900 1,000', 'ferries.pdf');
    expect(absentYears('What were ferry tickets in 2017?', [table])).to.deep.equal(['2017']);
    expect(absentYears('What were ferry tickets in 2017 and 2020?', [table])).to.equal(undefined);
    expect(absentYears('What were ferry tickets?', [table])).to.equal(undefined);
    expect(absentYears('What were ferry tickets in 2022?', [passage('Ferry tickets 2021/22 2,400')])).to.equal(undefined);
    expect(absentYears('What were ferry tickets in 2022?', [passage('F22 F21\nFerry tickets 2,400 2,000')])).to.equal(undefined);
    const answer = await new ExtractiveAnswerer().answer({ question: 'What were ferry tickets in 2017?', contexts: [table], history: [] });
    expect(answer.text.startsWith(`${NOT_FOUND_ANSWER} `), answer.text).to.equal(true);
    expect(answer.text).to.include('2017').and.include('Closest found: “');
  });
});
