import { expect } from 'chai';
import { defines, definingFirst, termAsked } from '../../../adapters/extractive/definition.js';

describe('a question asking what something is', () => {
  it('reads the term asked of "What is X?", "How does … define X?", "What does X mean?", not of a figure’s question', () => {
    expect(termAsked('What is Deltenna?')).to.equal('Deltenna');
    expect(termAsked('How does the company define ROIC?')).to.equal('ROIC');
    expect(termAsked('What does adjusted EBITDA mean?')).to.equal('adjusted EBITDA');
    expect(termAsked('What is the total revenue in 2019?')).to.equal(undefined);
    expect(termAsked('What was the change in net sales?')).to.equal(undefined);
    expect(termAsked('Why did sales fall?')).to.equal(undefined);
  });

  it('knows a defining sentence from one that only names the term', () => {
    expect(defines('In July 2017, we acquired Deltenna, a wireless infrastructure company.', 'Deltenna')).to.equal(true);
    expect(defines('We define ROIC as operating income divided by invested capital.', 'ROIC')).to.equal(true);
    expect(defines('Free cash flow (FCF) is cash from operations less capital spending.', 'free cash flow')).to.equal(true);
    expect(defines('Deltenna’s operations were included in our reporting unit.', 'Deltenna')).to.equal(false);
    expect(defines('Other companies may not define ROIC in the same way.', 'ROIC')).to.equal(false);
  });

  it('moves the best-ranked defining sentence to the front, and leaves the ranking alone otherwise', () => {
    const ranked = [
      { kind: 'sentence', text: 'Other companies may not define or calculate ROIC in the same way.' },
      { kind: 'row', text: 'ROIC 12% 11%' },
      { kind: 'sentence', text: 'We define ROIC as operating income divided by average invested capital.' },
    ];
    expect(definingFirst(ranked, 'How does the company define ROIC?').map((c) => c.text)).to.deep.equal([ranked[2].text, ranked[0].text, ranked[1].text]);
    expect(definingFirst(ranked, 'What was ROIC in 2019?')).to.equal(ranked);
    expect(definingFirst(ranked.slice(0, 2), 'What is ROIC?')).to.deep.equal(ranked.slice(0, 2));
  });
});
