import { expect } from 'chai';
import { readingOrder, type TextSegment } from '../../../adapters/extraction/reading-order.js';

const SIZE = 10;
/** Column k's text at x = 50 + k × 170, 150 wide; line n at y = 700 − 12 n (y grows up the page). */
const at = (text: string, column: number, line: number, width = 150): TextSegment => ({
  text, left: 50 + column * 170, right: 50 + column * 170 + width, y: 700 - 12 * line, size: SIZE,
});

const PROSE = [
  ['The committee met in the spring', 'and reviewed the harbour budget', 'for the coming year in detail.', 'It then turned to the ferries', 'and their timetables for summer.'],
  ['Members asked for new figures', 'on passenger numbers at night', 'before the vote was taken.', 'The chair agreed to provide them', 'at the next meeting in June.'],
  ['A second item concerned repairs', 'to the northern pier, which had', 'been damaged by winter storms.', 'The engineers estimated the cost', 'at forty thousand pounds.'],
];

/** Lines drawn across the page: each holds the same line of every column, as a typesetter on a grid draws them. */
function acrossColumns(columns: string[][]): TextSegment[][] {
  return columns[0].map((_, n) => columns.map((column, k) => at(column[n], k, n)));
}

describe('reading order of a page set in columns', () => {
  it('reads columns of prose drawn line by line across the page one after another', () => {
    expect(readingOrder(acrossColumns(PROSE))).to.deep.equal(PROSE.flat());
  });

  it('reads a title that crosses the gutters where it stands, between the bands of columns it separates', () => {
    const title: TextSegment = { text: 'Minutes of the harbour board', left: 50, right: 520, y: 730, size: 14 };
    const lower = acrossColumns(PROSE).map((line) => line.map((s) => ({ ...s, y: s.y - 200 })));
    const lines = [[title], ...acrossColumns(PROSE), [{ ...title, y: 560, text: 'Second part' }], ...lower];
    expect(readingOrder(lines)).to.deep.equal(['Minutes of the harbour board', ...PROSE.flat(), 'Second part', ...PROSE.flat()]);
  });

  it('joins the pieces of one column on one baseline (a dotted leader’s two ends)', () => {
    const lines = acrossColumns(PROSE);
    lines[0].splice(1, 0, { ...at('page 4', 0, 0), left: 50 + 120, right: 50 + 150 });
    lines[0][0] = { ...lines[0][0], right: 50 + 100 };
    expect(readingOrder(lines)?.[0]).to.equal('The committee met in the spring page 4');
  });

  it('leaves a table’s rows as they are: its cells are figures, not prose', () => {
    const rows = ['Net sales', 'Cost of sales', 'Gross profit', 'Selling expenses', 'Operating income', 'Interest expense'].map((label, n) => [
      at(label, 0, n), at(`${1000 + n * 37}`, 1, n, 40), at(`${900 + n * 41}`, 2, n, 40),
    ]);
    expect(readingOrder(rows)).to.equal(undefined);
  });

  it('leaves a list of short entries as it is: columns of names are not prose', () => {
    const lines = ['Alice Archer', 'Bob Baker', 'Carol Cook', 'Dan Dyer', 'Eve Evans', 'Frank Fox'].map((name, n) => [at(name, 0, n), at(`Room ${n + 1}`, 1, n)]);
    expect(readingOrder(lines)).to.equal(undefined);
  });

  it('leaves a page with too little text, or with no line holding two segments, as it is', () => {
    expect(readingOrder(acrossColumns(PROSE.map((column) => column.slice(0, 3))))).to.equal(undefined); // 9 segments
    expect(readingOrder(PROSE.flat().map((text, n) => [at(text, 0, n)]))).to.equal(undefined);
  });
});
