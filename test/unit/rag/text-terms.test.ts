import { expect } from 'chai';
import { bestSentence, excerptFor } from '../../../core/rag/context.js';
import { runTogetherInFileName, searchWords, splitSentences, termKey, termKeys } from '../../../core/rag/text.js';

describe('termKey', () => {
  it('meets inflected forms of one word on one key', () => {
    expect(termKey('discriminated')).to.equal(termKey('discriminates'));
    expect(termKey('discriminate')).to.equal(termKey('discriminated'));
    expect(termKey('Cities')).to.equal('citi');
    expect(termKey('nations')).to.equal(termKey('nation'));
    expect(termKey('classes')).to.equal('class');
  });

  it('stems as Porter does (the stemmer package), after folding case, diacritics and possessives', () => {
    expect(termKey('running')).to.equal('run');
    expect(termKey('generalization')).to.equal(termKey('generalize'));
    expect(termKey('class')).to.equal('class');
    expect(termKey('Poland’s')).to.equal('poland');
    expect(termKey('Éclairs')).to.equal(termKey('eclair'));
  });

  it('termKeys drops stopwords and keeps order', () => {
    expect(termKeys('When were the cities founded?')).to.deep.equal(['citi', 'found']);
  });
});

describe('runTogetherInFileName', () => {
  it('gives the question’s words a file name writes as one word, content words only', () => {
    expect(runTogetherInFileName('What happens on the Huck Finn page?', 'scanned-huckfinn-p22.pdf')).to.deep.equal(['huck', 'finn']);
    expect(runTogetherInFileName('What did General Mills earn?', 'GENERALMILLS_2019_10K.pdf')).to.deep.equal(['general', 'mills']);
    expect(runTogetherInFileName('Who founded Bank of America?', 'bankofamerica.pdf'), 'a function word inside the run').to.deep.equal(['bank', 'america']);
    expect(runTogetherInFileName('What were Apple’s Q3 results?', 'AppleQ3Results.pdf'), 'a possessive, a plural').to.deep.equal(['apple’s', 'q3', 'results']);
  });

  it('gives nothing for a word a file name holds on its own, nor for a word that only starts one', () => {
    expect(runTogetherInFileName('What is the fee?', 'scanned-huckfinn-p22.pdf')).to.deep.equal([]);
    expect(runTogetherInFileName('What does Huck say?', 'scanned-huckfinn-p22.pdf')).to.deep.equal([]);
    expect(runTogetherInFileName('What was scanned?', 'scanned-huckfinn-p22.pdf')).to.deep.equal([]);
    expect(runTogetherInFileName('Huck Finn', 'notes.pdf')).to.deep.equal([]);
  });
});

describe('searchWords', () => {
  it('gives a query’s content words once each, possessives as their plain word, and all its words when it has no other', () => {
    expect(searchWords("What was Amazon's and Nike’s revenue, Amazon's?")).to.deep.equal(['amazon', 'nike', 'revenue']);
    expect(searchWords('What is it?')).to.deep.equal(['what', 'is', 'it']);
    expect(searchWords('?!')).to.deep.equal([]);
  });
});

describe('splitSentences with footnote markers', () => {
  it('ends a sentence after "word.[12]" and "word.12" but not inside a decimal', () => {
    expect(splitSentences('It rained.[12] Then it snowed.[3][4] It cost 3.12 Million. He came.12 Next day was fine.')).to.deep.equal([
      'It rained.[12]',
      'Then it snowed.[3][4]',
      'It cost 3.12 Million.',
      'He came.12',
      'Next day was fine.',
    ]);
  });
});

describe('bestSentence and excerptFor', () => {
  const sentences = [
    'The river flows through the city and the city grows.',
    'In 1596 the king moved the capital to the city of Warsaw.',
    'The city has many parks.',
  ];

  it('prefers the sentence with the question’s rarer words and phrases over one repeating common ones', () => {
    expect(bestSentence(sentences, 'When did the king move the capital to the city?')).to.equal(1);
    expect(bestSentence(sentences, 'nothing matches here')).to.equal(0);
  });

  it('centres the excerpt on that sentence, marking what was left out', () => {
    const text = `${'Filler words about something else entirely. '.repeat(8)}${sentences.join(' ')}`;
    const excerpt = excerptFor(text, 'When did the king move the capital?', 120);
    expect(excerpt).to.contain('In 1596 the king moved the capital');
    expect(excerpt.startsWith('… ')).to.equal(true);
    expect(excerpt.length).to.be.at.most(124);
  });
});
