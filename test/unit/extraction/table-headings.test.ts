import { expect } from 'chai';
import { withTableHeadings } from '../../../adapters/extraction/table-headings.js';
import type { TextSegment } from '../../../adapters/extraction/reading-order.js';

const SIZE = 9;
/** A segment of `text` ending at `right` (figures and headings right-aligned), `line` lines below y = 600. */
const cell = (text: string, right: number, line: number): TextSegment => ({ text, left: right - text.length * 4.5, right, y: 600 - 12 * line, size: SIZE });
/** A label at the table's left edge (x = 56). */
const label = (text: string, line: number): TextSegment => ({ text, left: 56, right: 56 + text.length * 4.5, y: 600 - 12 * line, size: SIZE });
/** Right edges of five figure columns. */
const AT = [280, 340, 400, 460, 520];

/** Rows of a contractual obligations table from line `from` on. */
function rows(from: number): TextSegment[][] {
  return [
    [label('Operating leases', from), ...['$98,389', '$37,427', '$36,581', '$12,556', '$11,825'].map((f, k) => cell(f, AT[k], from))],
    [label('Purchase obligations', from + 1), ...['424,561', '345,498', '28,946', '13,442', '36,675'].map((f, k) => cell(f, AT[k], from + 1))],
    [label('Total', from + 2), ...['$522,950', '$382,925', '$65,527', '$25,998', '$48,500'].map((f, k) => cell(f, AT[k], from + 2))],
  ];
}
const PARAGRAPH = [label('Our contractual obligations as of June 30, 2019 are set out in the following table by maturity date.', -1)];

describe('table headings wrapped in their columns, read by the page geometry (adapters/extraction/table-headings.ts)', () => {
  it('reads headings a text layer interleaves as one line, a cell per column, in the order printed', () => {
    // As drawn cell by cell: each heading's lines one after the other, so the text layer's lines mix the columns.
    const lines = [
      PARAGRAPH,
      [cell('Total', AT[0], 0), cell('Less Than', AT[1], 0)],
      [cell('1 Year', AT[1], 1)],
      [cell('1-3 Years', AT[2], 0), cell('3-5 Years', AT[3], 0), cell('More Than', AT[4], 0)],
      [cell('5 Years', AT[4], 1)],
      ...rows(2),
    ];
    expect(withTableHeadings(lines)).to.deep.equal([
      PARAGRAPH[0].text,
      'Total | Less Than 1 Year | 1-3 Years | 3-5 Years | More Than 5 Years',
      'Operating leases $98,389 $37,427 $36,581 $12,556 $11,825',
      'Purchase obligations 424,561 345,498 28,946 13,442 36,675',
      'Total $522,950 $382,925 $65,527 $25,998 $48,500',
    ]);
  });

  it('puts a heading over every column on a line above, a group heading on each of its columns, a unit below and a label-column heading apart', () => {
    const spanning: TextSegment = { text: 'Payments due by period', left: 300, right: 420, y: 624, size: SIZE };
    const group: TextSegment = { text: 'Within five years', left: 300, right: 400, y: 612, size: SIZE };
    const lines = [
      [spanning],
      [group],
      [label('Contractual obligations', 0), cell('Total', AT[0], 0), cell('Less Than', AT[1], 0), cell('1-3 Years', AT[2], 0), cell('3-5 Years', AT[3], 0), cell('More Than', AT[4], 0)],
      [cell('1 Year', AT[1], 1), cell('(in thousands)', AT[2], 1), cell('5 Years', AT[4], 1)],
      ...rows(2),
    ];
    spanning.left = AT[0] - 30;
    spanning.right = AT[4];
    group.left = AT[0] - 30;
    group.right = AT[2];
    expect(withTableHeadings(lines).slice(0, 4)).to.deep.equal([
      'Payments due by period',
      'Contractual obligations',
      'Within five years Total | Within five years Less Than 1 Year | Within five years 1-3 Years | 3-5 Years | More Than 5 Years',
      '(in thousands)',
    ]);
  });

  it('names a column printed without a heading as such, and keeps a section title between the headings and the rows', () => {
    const lines = [
      [cell('2019', AT[0], 0), cell('2018', AT[1], 0), cell('2019 over', AT[2], 0)],
      [cell('2018', AT[2], 1)],
      [label('Assets', 2)],
      ...rows(3).map((row) => row.slice(0, 5)),
    ];
    const read = withTableHeadings(lines);
    expect(read.slice(0, 3)).to.deep.equal(['2019 | 2018 | 2019 over 2018 | —', 'Assets', 'Operating leases $98,389 $37,427 $36,581 $12,556']);
  });

  it('leaves headings on one line, or stacked evenly (every column two lines), as the text layer gave them', () => {
    const oneLine = [[cell('2019', AT[0], 0), cell('2018', AT[1], 0), cell('2017', AT[2], 0), cell('2016', AT[3], 0), cell('2015', AT[4], 0)], ...rows(1)];
    expect(withTableHeadings(oneLine)[0]).to.equal('2019 2018 2017 2016 2015');
    const stacked = [
      ['Amortized', 'Unrealized', 'Unrealized', 'Fair', 'Total'].map((w, k) => cell(w, AT[k], 0)),
      ['Cost', 'Gains', 'Losses', 'Value', 'Amount'].map((w, k) => cell(w, AT[k], 1)),
      ...rows(2),
    ];
    expect(withTableHeadings(stacked).slice(0, 2)).to.deep.equal(['Amortized Unrealized Unrealized Fair Total', 'Cost Gains Losses Value Amount']);
  });

  it('reads evenly stacked headings drawn column by column (the text layer goes back up the page) by their columns', () => {
    const tops = ['Amortized', 'Unrealized', 'Unrealized', 'Fair', 'Total'];
    const bottoms = ['Cost', 'Gains', 'Losses', 'Value', 'Amount'];
    const drawn = tops.flatMap((top, k) => [[cell(top, AT[k], 0)], [cell(bottoms[k], AT[k], 1)]]);
    expect(withTableHeadings([...drawn, ...rows(2)])[0]).to.equal('Amortized Cost | Unrealized Gains | Unrealized Losses | Fair Value | Total Amount');
  });

  it('reads dates wrapped over three lines each, drawn column by column, with a unit line below', () => {
    // TAT-QA dev's "30 June 2019 | 30 June 2018 | Change" printed in narrow columns: the last column's one line and the
    // units' line come first going up, three lines apart from the dates' top lines, and the day ("30") is no figure;
    // the "%" over the change column is its heading, the unit goes below once.
    const dates = [['30', 'June', '2019'], ['30', 'June', '2018'], ['Change']];
    const drawn = dates.flatMap((lines, k) => lines.map((text, line) => [cell(text, AT[k], line)]));
    const units = [cell('$’000', AT[0], 3), cell('$’000', AT[1], 3), cell('%', AT[2], 3)];
    const table = [[label('Net profit after tax', 4), ...['(9,819)', '6,639', '(248%)'].map((f, k) => cell(f, AT[k], 4))], [label('Underlying EBITDA', 5), ...['85,123', '62,575', '36%'].map((f, k) => cell(f, AT[k], 5))]];
    expect(withTableHeadings([...drawn, units, ...table]).slice(0, 2)).to.deep.equal(['30 June 2019 | 30 June 2018 | Change %', '$’000']);
  });

  it('takes no line of the paragraph above into the headings, and reads a page with no table as it is', () => {
    const lines = [
      [label('The table shows what we owe and', 0), cell('when.', AT[4], 0)],
      [label('Payments are due as follows', 1)],
      [cell('Total', AT[0], 2), cell('Less Than', AT[1], 2), cell('1-3 Years', AT[2], 2), cell('3-5 Years', AT[3], 2), cell('More Than', AT[4], 2)],
      [cell('1 Year', AT[1], 3), cell('5 Years', AT[4], 3)],
      ...rows(4),
    ];
    const read = withTableHeadings(lines);
    expect(read.slice(0, 3)).to.deep.equal(['The table shows what we owe and when.', 'Payments are due as follows', 'Total | Less Than 1 Year | 1-3 Years | 3-5 Years | More Than 5 Years']);
    const prose = PARAGRAPH.concat([label('A second line of prose follows here.', 0)]).map((s) => [s]);
    expect(withTableHeadings(prose)).to.deep.equal(prose.map(([s]) => s.text));
  });
});
