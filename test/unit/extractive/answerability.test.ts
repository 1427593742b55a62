import { expect } from 'chai';
import { ANSWERABILITY_FEATURES, ANSWERABILITY_WEIGHTS, answerabilityFeatures, nearSpelling } from '../../../adapters/extractive/answerability.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { NOT_FOUND_ANSWER } from '../../../core/rag/prompt.js';

const passage = (ref: string, text: string, page = 1): ContextPassage => ({ ref, filename: 'report.pdf', page, text, score: 1 });
const feature = (features: number[], name: (typeof ANSWERABILITY_FEATURES)[number]) => features[ANSWERABILITY_FEATURES.indexOf(name)];

const LIQUIDITY = [
  passage('1', 'Liquidity and Capital Resources. We finance our business primarily through cash flows provided by operating activities, borrowings from banks, and proceeds from issuances of debt and equity.'),
  passage('2', 'We periodically review our capital structure and liquidity position in light of market conditions and expected future cash flows.', 2),
];
const GANDHI = [passage('1', 'Mohandas Gandhi led a campaign of civil disobedience against the salt tax in 1930, marching to the sea at Dandi.')];

describe('answerability: whether retrieved passages can answer a question', () => {
  it('has a weight for every feature, the bias last', () => {
    expect(ANSWERABILITY_WEIGHTS).to.have.length(ANSWERABILITY_FEATURES.length);
    expect(ANSWERABILITY_FEATURES[ANSWERABILITY_FEATURES.length - 1]).to.equal('bias');
  });

  it('counts a question word the passages lack, and a name above all', () => {
    const features = answerabilityFeatures('What is the capital of France?', LIQUIDITY, []);
    expect(feature(features, 'absentShare')).to.equal(0.5);
    expect(feature(features, 'absentNames')).to.equal(1);
    // "france" is in no sentence: it weighs as the rarest word, so "capital" alone covers less than half.
    const scored = LIQUIDITY.map((p) => ({ text: p.text, score: 1, features: [] }));
    expect(feature(answerabilityFeatures('What is the capital of France?', LIQUIDITY, scored), 'strictCoverage')).to.be.within(0.01, 0.5);
  });

  it('finds a name the question misspells', () => {
    const features = answerabilityFeatures('What did Ghandi march against?', GANDHI, []);
    expect(feature(features, 'absentNames')).to.equal(0);
    expect(feature(answerabilityFeatures('What did Nehru march against?', GANDHI, []), 'absentNames')).to.equal(1);
  });

  it('takes a slip of one or two letters for the same word, not a different short word', () => {
    expect(nearSpelling('ghandi', 'gandhi')).to.equal(true);
    expect(nearSpelling('bedigo', 'bendigo')).to.equal(true);
    expect(nearSpelling('capitol', 'capital')).to.equal(true);
    expect(nearSpelling('tax', 'fax')).to.equal(false);
    expect(nearSpelling('salt', 'malt')).to.equal(false);
    expect(nearSpelling('france', 'finance')).to.equal(false);
  });
});

describe('ExtractiveAnswerer says "not found" when the passages cannot answer', () => {
  const answerer = new ExtractiveAnswerer();

  it('does not quote a passage sharing one word with a question about something else', async () => {
    const answer = await answerer.answer({ question: 'What is the capital of France?', contexts: LIQUIDITY, history: [] });
    expect(answer).to.deep.equal({ text: NOT_FOUND_ANSWER, usedRefs: [] });
  });

  it('still answers a question the passages hold, misspelt or not', async () => {
    for (const question of ['What did Gandhi march against in 1930?', 'What did Ghandi march against in 1930?']) {
      const answer = await answerer.answer({ question, contexts: GANDHI, history: [] });
      expect(answer.text, question).to.include('salt tax');
      expect(answer.usedRefs).to.deep.equal(['1']);
    }
    const liquidity = await answerer.answer({ question: 'How do we finance our business?', contexts: LIQUIDITY, history: [] });
    expect(liquidity.text).to.include('operating activities');
  });
});
