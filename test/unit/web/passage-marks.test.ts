import { expect } from 'chai';
import { passageSpans } from '../../../web/src/passage-marks.js';
import { placeOf } from '../../../web/src/place.js';
import { answerForCopy } from '../../../web/src/transcript.js';

const SHEET = 'Sheet Q3\n\nLine 2019 2018\nTravel budget 12,500 11,800.50\nOffice supplies 3,400 2,950.00\nTraining 8,000 7,600.00';
const marked = (text: string, passages: string[]) => passageSpans(text, passages).map(([start, end]) => text.slice(start, end));

describe('web: a unit’s text with the cited passage marked', () => {
  it('finds an excerpt or a quote whose line breaks became spaces, each of its pieces between "…" apart', () => {
    const text = 'Either party may end this agreement\nwith ninety days notice in writing. Fees are due monthly.\n\nNotices go by post.';
    expect(marked(text, ['agreement with ninety days notice in writing.'])).to.deep.equal(['agreement\nwith ninety days notice in writing.']);
    expect(marked(text, ['Either party may end … Notices go by post.'])).to.deep.equal(['Either party may end', 'Notices go by post.']);
    expect(marked(text, ['Nothing of it'])).to.deep.equal([]);
  });

  it('marks the lines a quote of table rows holds (its own order, a header joined by " | "), not the others', () => {
    const quote = 'Travel budget 12,500 11,800.50 Line 2019 2018 … Line 2019 2018 | Office supplies 3,400 2,950.00';
    expect(marked(SHEET, [quote])).to.deep.equal(['Line 2019 2018', 'Travel budget 12,500 11,800.50', 'Office supplies 3,400 2,950.00']);
    // A short line is in too many quotes to say anything.
    expect(marked('2019\nRent 4,800 euros', ['Total 2019 rent'])).to.deep.equal([]);
  });

  it('merges overlapping passages into one mark', () => {
    expect(marked(SHEET, ['Travel budget 12,500', '12,500 11,800.50 Office supplies'])).to.deep.equal(['Travel budget 12,500 11,800.50\nOffice supplies']);
  });

  it('names a unit instead of a page, in the source and in a copied answer’s sources', () => {
    expect(placeOf({ filename: 'budget.xlsx', page: 1, unit: 'Sheet Q3' })).to.equal('budget.xlsx, Sheet Q3');
    expect(placeOf({ filename: 'a.pdf', page: 2 })).to.equal('a.pdf, page 2');
    const source = { filename: 'budget.xlsx', page: 1, unit: 'Sheet Q3', excerpt: 'x', score: 1, ingestId: 'j', marker: 1 };
    expect(answerForCopy('Travel: 12,500 [1]', [source])).to.equal('Travel: 12,500 [1]\n\nSources: [1] budget.xlsx, Sheet Q3');
  });
});
