import { expect } from 'chai';
import { echoedHeading, echoesHeading, namesTopicHeading } from '../../../core/rag/question-headings.js';

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

describe('namesTopicHeading', () => {
  it('holds for a heading line of a few words that says all the question asks but one word, the file name’s aside', () => {
    const section = 'Patents\nEmployees\nAs of May 31, 2018, we had approximately 73,100 employees worldwide.';
    expect(namesTopicHeading('How many employees does Nike have?', section, 'NIKE_2018_10K.pdf')).to.equal(true);
    expect(namesTopicHeading('Does Nike own patents?', section, 'NIKE_2018_10K.pdf')).to.equal(true);
    expect(namesTopicHeading('How many employees does Nike have?', section, 'employees-2018.pdf'), 'the file name’s word').to.equal(false);
    expect(namesTopicHeading('What was the employee stock compensation?', section, 'NIKE_2018_10K.pdf'), 'asks more').to.equal(false);
    expect(namesTopicHeading('How many people work there?', 'We had 73,100 employees.', 'NIKE_2018_10K.pdf'), 'no heading').to.equal(false);
    // An 8-K's exhibit title names four of the question's words and leaves five out (PepsiCo, FinanceBench tune part).
    const exhibit = 'FIVE YEAR CREDIT AGREEMENT\nDated as of May 26, 2023, among PepsiCo, Inc. and the lenders.';
    expect(namesTopicHeading('By how much did Pepsico increase its unsecured five year revolving credit agreement on May 26, 2023?', exhibit, 'PEPSICO_2023_8K.pdf')).to.equal(false);
  });
});

