import { expect } from 'chai';
import { echoedHeading, echoesHeading } from '../../../core/rag/question-headings.js';

describe('echoesHeading (a question that repeats a question-shaped heading)', () => {
  it('holds when the question has every word of a heading with a wh-word, stemmed, articles and auxiliaries aside', () => {
    expect(echoesHeading('Who must apply for a ferry pass?', 'Who Must Apply')).to.equal(true);
    expect(echoesHeading('Where do I apply?', 'Where To Apply')).to.equal(true);
    expect(echoesHeading('When are applications due?', 'When Applications Are Due')).to.equal(true);
    expect(echoesHeading('What is new this year?', 'What’s New This Year')).to.equal(true);
    expect(echoesHeading('Who is applying?', 'Who Must Apply'), 'must is asked too').to.equal(false);
  });

  it('does not hold for a topic heading, a heading the question words otherwise, or one of stopwords alone', () => {
    expect(echoesHeading('What is the standard fare?', 'Standard Fare'), 'no wh-word: left to search').to.equal(false);
    expect(echoesHeading('When is the pass due?', 'When To Apply')).to.equal(false);
    expect(echoesHeading('What is it?', 'What Is It')).to.equal(false);
  });
});

describe('echoedHeading', () => {
  it('finds a heading line of a chunk, not the same words inside a sentence', () => {
    const section = 'Fares\nChildren travel free.\nWho Must Apply\nEvery commuter who crosses more than twice a week applies for a pass.';
    expect(echoedHeading('Who must apply for a pass?', section)).to.equal('Who Must Apply');
    expect(echoedHeading('Who must apply for a pass?', 'Passes are free. See Who Must Apply on page 4.')).to.equal(undefined);
  });
});
