import { expect } from 'chai';
import { layoutTextItems, type PlacedItem } from '../../../adapters/extraction/pdfjs-text.js';

/** An item at (x, y) on the page as shown (y grows down), 6 points of advance per character, 10 points high. */
const item = (str: string, x: number, y: number, extra: Partial<PlacedItem> = {}): PlacedItem => ({
  str, x, y, width: 6 * str.length, height: 10, hasEOL: false, ...extra,
});

describe('pdf.js text items laid out in lines (pdfjs-text.ts)', () => {
  it("ends a line where pdf.js marks one, and joins items of one line as they come", () => {
    const text = layoutTextItems([item('Net ', 50, 100), item('sales', 74, 100, { hasEOL: true }), item('Cost', 50, 112)]);
    expect(text).to.equal('Net sales\nCost');
  });

  it('starts a new line where the baseline moves by more than a line and pdf.js gave no line end', () => {
    expect(layoutTextItems([item('first', 50, 100), item('second', 50, 114)])).to.equal('first\nsecond');
  });

  it('keeps a superscript (a baseline shift smaller than the line\'s height) in its line, without a cell gap', () => {
    // 7 points up: more than the 4.6-point line threshold, but within the 10-point line; the footnote mark follows.
    expect(layoutTextItems([item('alert,', 50, 100), item('9', 86, 93), item(' (3) revising', 92, 100)])).to.equal('alert,9 (3) revising');
  });

  it('puts a tab between cells of a table row (a gap wider than 7 points on one baseline), none for a word gap', () => {
    const row = [item('Net sales', 50, 200), item('$', 150, 200), item('32,765', 160, 200)];
    // 'Net sales' ends at 104: 46 points to '$' (a cell); '$' ends at 156: 4 points to the figure (same cell).
    expect(layoutTextItems(row)).to.equal('Net sales\t$32,765');
  });

  it('adds no line end when the new item or the text so far already breaks the line', () => {
    expect(layoutTextItems([item('a\n', 50, 100), item('b', 50, 120)])).to.equal('a\nb');
    expect(layoutTextItems([item('a', 50, 100), item('\nb', 50, 120)])).to.equal('a\nb');
    expect(layoutTextItems([item('a', 50, 100), item(' ', 50, 120, { hasEOL: true }), item('b', 50, 140)])).to.equal('a \nb');
  });

  it('measures the line height afresh after each line end', () => {
    // A tall heading (30 points) then a 20-point drop: a new line, since the heading's line ended and the height reset.
    const items = [item('Heading', 50, 100, { height: 30, hasEOL: true }), item('body', 50, 130), item('next', 50, 150)];
    expect(layoutTextItems(items)).to.equal('Heading\nbody\nnext');
    // Without the line end, the heading's height keeps a 20-point drop on its line (pdf-parse's rule, kept).
    expect(layoutTextItems([item('Heading', 50, 100, { height: 30 }), item('body', 50, 120)])).to.equal('Headingbody');
  });

  it('gives an empty page as empty text', () => {
    expect(layoutTextItems([])).to.equal('');
  });
});
