import { expect } from 'chai';
import { absentNames, isWeakMatchAnswer, nearSpelling, questionNames, weakMatchNote } from '../../../adapters/extractive/absent-names.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { isNotFoundAnswer } from '../../../core/rag/prompt.js';

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

  it('is said in a way that reads as an answer with sources, not as "not found"', () => {
    const note = weakMatchNote(['France']);
    expect(note).to.equal('None of the passages I found mentions France, so this may not answer your question:\n');
    expect(weakMatchNote(['Paris', 'Berlin', 'Rome'])).to.contain('mentions Paris, Berlin or Rome,');
    expect(isWeakMatchAnswer(`${note}“We review our capital structure.” [1]`)).to.equal(true);
    expect(isWeakMatchAnswer('“We review our capital structure.” [1]')).to.equal(false);
    expect(isNotFoundAnswer(`${note}“We review our capital structure.” [1]`)).to.equal(false);
  });

  it('makes the extractive answer say so before quoting the closest passage, which it still cites', async () => {
    const answerer = new ExtractiveAnswerer();
    const weak = await answerer.answer({ question: 'What is the capital of France?', contexts: [TEN_Q], history: [] });
    expect(weak.text.startsWith(weakMatchNote(['France'])), weak.text).to.equal(true);
    expect(weak.text).to.contain('capital structure');
    expect(weak.usedRefs).to.deep.equal(['1']);
    const sound = await answerer.answer({ question: 'How does Amcor review its capital structure?', contexts: [TEN_Q], history: [] });
    expect(isWeakMatchAnswer(sound.text), sound.text).to.equal(false);
    expect(sound.text).to.contain('capital structure');
  });
});
