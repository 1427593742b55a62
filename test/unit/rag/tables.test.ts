import { expect } from 'chai';
import { splitUnits } from '../../../core/rag/layout.js';
import { formatNumber, parseFigure, tableUnitOf, withUnit } from '../../../core/rag/tables/figures.js';
import { compute } from '../../../core/rag/tables/table-arithmetic.js';
import { answerFromTables } from '../../../core/rag/tables/table-answer.js';
import { readTableGrids } from '../../../core/rag/tables/table-grid.js';
import { operationAsked } from '../../../core/rag/tables/table-intents.js';
import { structureAnswer } from '../../../core/rag/tables/table-structure.js';

/** A page of NIKE's 2019 10-K (note 17) as the PDF reader lays it out. */
const SEGMENTS = `YEAR ENDED MAY 31,
(Dollars in millions) 2019 2018 2017
REVENUES
North America $ 15,902 $ 14,855 $ 15,216
Europe, Middle East & Africa 9,812 9,242 7,970
Greater China 6,208 5,134 4,237
Total NIKE Brand 37,218 34,485 32,233
Corporate (7) 26 75
TOTAL NIKE, INC. REVENUES $ 39,117 $ 36,397 $ 34,350
EARNINGS BEFORE INTEREST AND TAXES
North America $ 3,925 $ 3,600 $ 3,875
Greater China 2,376 1,807 1,507
Global Brand Divisions (3,262) (2,658) (2,677)`;

/** An income statement's lines where "net" and "income" head several rows (the Coca-Cola 10-K a user asked). */
const INCOME = `CONSOLIDATED STATEMENTS OF INCOME
(In millions except per share data) 2020 2019 2018
Net Operating Revenues $ 33,014 $ 37,266 $ 34,300
Other income (loss) — net 841 34 (1,674)
Income Before Income Taxes 9,749 10,786 8,350
Consolidated Net Income 7,768 8,985 6,476`;

/** A TAT-QA table as a report prints it. */
const SALES = `Years Ended September 30,
2019 2018 2017
Fixed Price $ 1,452.4 $ 1,146.2 $ 1,036.9
Other 44.1 56.7 70.8
Total sales $1,496.5 $1,202.9 $1,107.7`;

const grids = (text: string) => readTableGrids(splitUnits(text));

describe('table figures', () => {
  it('reads a cell as printed: currency, brackets for negatives, percent, nil', () => {
    expect(parseFigure('$1,452.4')).to.include({ value: 1452.4, percent: false, decimals: 1 });
    expect(parseFigure('(1,674)')).to.include({ value: -1674 });
    expect(parseFigure('$(12)')).to.include({ value: -12 });
    expect(parseFigure('-3.25')).to.include({ value: -3.25, decimals: 2 });
    expect(parseFigure('30.8%')).to.include({ value: 30.8, percent: true });
    expect(parseFigure('(9.4%)')).to.include({ value: -9.4, percent: true });
    expect(parseFigure('(9.4)%')).to.include({ value: -9.4, percent: true });
    expect(parseFigure('—')).to.include({ value: undefined });
    expect(parseFigure('1,45')).to.equal(undefined);
    expect(parseFigure('Revenue')).to.equal(undefined);
    expect(parseFigure('(12')).to.equal(undefined);
  });

  it('finds the unit a table prints its figures in', () => {
    expect(tableUnitOf(['(Dollars in millions) 2019 2018 2017'])).to.deep.equal({ multiplier: 1e6, scale: 'million', currency: '$' });
    expect(tableUnitOf(['2019 €m 2018 €m 2017 €m'])).to.deep.equal({ multiplier: 1e6, scale: 'million', currency: '€' });
    expect(tableUnitOf(['(In thousands, except per share data)'])).to.include({ multiplier: 1e3, scale: 'thousand' });
    expect(tableUnitOf(['Years Ended September 30,', '2019 2018 2017'])).to.equal(undefined);
  });

  it('prints numbers grouped, rounded half away from zero, with the unit', () => {
    expect(formatNumber(1234567.891)).to.equal('1,234,567.89');
    expect(formatNumber(1.005)).to.equal('1.01');
    expect(formatNumber(-2509)).to.equal('−2,509');
    expect(withUnit(8985, { multiplier: 1e6, scale: 'million', currency: '$' })).to.equal('$8,985 million');
    expect(withUnit(-12.5, { multiplier: 1e6, scale: 'million', currency: '€' })).to.equal('−€12.5 million');
    expect(withUnit(38.74, undefined, { percent: true })).to.equal('38.74%');
  });
});

describe('table arithmetic', () => {
  it('computes each operation and shows how', () => {
    expect(compute('change', [6476, 8985])).to.deep.equal({ value: 2509, percent: false, trace: '8,985 − 6,476 = 2,509' });
    expect(compute('percent-change', [6476, 8985])).to.deep.equal({ value: 38.74, percent: true, trace: '(8,985 − 6,476) / 6,476 = 38.74%' });
    expect(compute('average', [166, 178])?.trace).to.equal('(166 + 178) / 2 = 172');
    expect(compute('sum', [166, 178, 192])?.value).to.equal(536);
    expect(compute('share', [1452.4, 1496.5], 1)?.value).to.equal(97.05);
    expect(compute('ratio', [10, 4])?.value).to.equal(2.5);
    expect(compute('difference', [57, 166])?.trace).to.equal('57 − 166 = −109');
  });

  it('refuses what cannot be computed', () => {
    expect(compute('percent-change', [0, 5])).to.equal(undefined);
    expect(compute('ratio', [5, 0])).to.equal(undefined);
    expect(compute('average', [5])).to.equal(undefined);
    expect(compute('change', [1, 2, 3])).to.equal(undefined);
  });
});

describe('tables read as tables', () => {
  it('reads rows × columns with sections, periods and unit', () => {
    const [grid, ...rest] = grids(SEGMENTS);
    expect(rest).to.have.length(0);
    expect(grid.columns.map((c) => c.year)).to.deep.equal([2019, 2018, 2017]);
    expect(grid.unit).to.deep.include({ scale: 'million', currency: '$' });
    const china = grid.rows.filter((r) => r.label === 'Greater China');
    expect(china.map((r) => r.section)).to.deep.equal(['REVENUES', 'EARNINGS BEFORE INTEREST AND TAXES']);
    expect(china[0].figures.map((f) => f?.value)).to.deep.equal([6208, 5134, 4237]);
    expect(grid.rows.find((r) => r.label === 'Corporate')?.figures[0]?.value).to.equal(-7);
  });

  it('keeps two tables apart and reads a header of years with unit words', () => {
    const two = grids(`${INCOME}\nThe Company's results were discussed with the audit committee at length in the year.\n${SALES}`);
    expect(two).to.have.length(2);
    expect(two[0].title).to.equal('CONSOLIDATED STATEMENTS OF INCOME');
    expect(two[1].rows.map((r) => r.label)).to.deep.equal(['Fixed Price', 'Other', 'Total sales']);
  });
});

describe('headers a page breaks or leaves behind', () => {
  it('reads a header of dates broken over short lines, a day and year on a line of their own', () => {
    const [grid] = grids(`Balance at March 2,\n2021\nFebruary\n26, 2020\n(in millions)\nSpare parts 14 9\nTooling 31 40`);
    expect(grid.columns.map((c) => c.year)).to.deep.equal([2021, 2020]);
    expect(grid.unit).to.deep.include({ scale: 'million' });
    expect(answerFromTables('What was the change in tooling from 2020 to 2021?', [grid])?.line).to.equal('Change in Tooling from 2020 to 2021: −9 million (31 − 40 = −9)');
  });

  it('reads a header run on after the sentence that introduces the table', () => {
    const [grid] = grids(`The harbour dues collected were as follows: Season ending May 3, 2021 May 4, 2020\nCargo dues $1,200 $900\nBerth dues 300 350`);
    expect(grid.columns.map((c) => c.year)).to.deep.equal([2021, 2020]);
  });

  it('keeps rows under their header across a sentence and across a break in the table', () => {
    const text = `2021 2020\nAll figures in euros. Included below are the costs the board approved for the new depot:\nFencing 120 80\nLighting 45 60\nThe lighting contract was renewed in the spring after a tender among three suppliers.\nTotal depot costs 165 140\nLess: grants received 20 10`;
    const found = grids(text);
    expect(found.map((g) => g.columns.map((c) => c.year))).to.deep.equal([[2021, 2020], [2021, 2020]]);
    expect(answerFromTables('What is the percentage change in grants received from 2020 to 2021?', found)?.computed?.value).to.equal(100);
  });

  it('keeps a bracket the label opened in the label ("(see Note 4)")', () => {
    const [grid] = grids(`2021 2020\nDeposits held (see Note 4) $310 $250\nPrepayments 12 15`);
    expect(grid.rows.map((r) => r.label)).to.deep.equal(['Deposits held (see Note 4)', 'Prepayments']);
    expect(grid.rows[0].figures.map((f) => f?.value)).to.deep.equal([310, 250]);
  });
});

describe('columns named by words', () => {
  const PRICES = `Ticket Prices\nRange 2021\nLow High\nFirst Quarter $ 5.99 $ 8.40\nSecond Quarter $ 4.79 $ 6.48`;

  it('names a column by its numbers as written ("1-3 Years", "3-5 Years"), not by "years" alone', () => {
    const due = grids('Payments due by period\nTotal | Less Than 1 Year | 1-3 Years | 3-5 Years | More Than 5 Years\nLease obligations $3,100 $773 $2,055 $200 $72\nPurchase obligations 1,200 600 400 200 —');
    expect(answerFromTables('What are the lease obligations due in 3-5 years?', due)?.line).to.equal('Lease obligations, 3-5 Years: $200');
    expect(answerFromTables('What are the lease obligations due in more than 5 years?', due)?.line).to.equal('Lease obligations, More Than 5 Years: $72');
    expect(answerFromTables('What are the respective lease obligations due in less than one year and 1-3 years?', due)?.line).to.equal('Lease obligations, Less Than 1 Year: $773; 1-3 Years: $2,055');
  });

  it('reads a header of words as the columns when it names as many as the rows print, and the year above as the table’s period', () => {
    const [grid] = grids(PRICES);
    expect(grid.columns.map((c) => c.label)).to.deep.equal(['Low', 'High']);
    expect(grid.period).to.equal(2021);
    expect(answerFromTables('In the first quarter of 2021, what is the difference between the low and high price?', [grid])?.computed?.value).to.equal(-2.41);
    expect(answerFromTables('What was the high price in the second quarter?', [grid])?.line).to.equal('Second Quarter, High: $6.48');
  });

  it('reads a header stacked over two lines column by column, and one whose second line repeats a word', () => {
    const [stacked] = grids(`Amortized Unrealized Unrealized Fair\nCost Gains Losses Value\nHarbour bonds $1,200 $— 30 1,170\nCity bonds 800 25 — 825`);
    expect(stacked.columns.map((c) => c.label)).to.deep.equal(['Amortized Cost', 'Unrealized Gains', 'Unrealized Losses', 'Fair Value']);
    expect(stacked.rows[0].figures.map((f) => f?.value)).to.deep.equal([1200, undefined, 30, 1170]);
    const [quarters] = grids(`First Second\nQuarter Quarter Total\nVisitors 120 130 250\nGuided tours 12 15 27`);
    expect(quarters.columns.map((c) => c.label)).to.deep.equal(['First Quarter', 'Second Quarter', 'Total']);
    expect(answerFromTables('How many visitors were there in the second quarter?', [quarters])?.cells.map((c) => c.value)).to.deep.equal([130]);
  });

  it('splits a header broken over lines into names by their capitals and numbers, and takes shares between two named columns', () => {
    const [grid] = grids(`The ageing of the members' dues was as follows.\n30 June 2021 Current 0 to 30\ndays overdue More than 30 days overdue Total $'000 $'000 $'000 $'000\nDues billed 900 60 40 1,000\nDues written off 9 6 20 35`);
    expect(grid.columns.map((c) => c.label)).to.deep.equal(['Current', '0 to 30 days overdue', 'More than 30 days overdue', 'Total']);
    const answer = answerFromTables('What was the percentage of current dues billed out of total dues billed?', [grid]);
    expect(answer?.line).to.equal('Dues billed, Current as a share of Total: 90% (900 / 1,000 = 0.9 = 90%)');
  });

  it('leaves a heading alone that cannot name the columns (too few names, or a year among them)', () => {
    expect(grids(`Operating costs\nFuel 10 12\nCrew 20 21`)[0].columns.map((c) => c.label)).to.deep.equal(['', '']);
    expect(grids(`For the years ended October\nFuel 10 12\nCrew 20 21`)[0].columns.map((c) => c.label)).to.deep.equal(['', '']);
  });

  it('starts a new table where the header is printed again under the next period’s heading', () => {
    const found = grids(`Season 2021\nFirst Second\nQuarter Quarter Total\nVisitors 120 130 250\nTours 12 15 27\nSeason 2020\nFirst Second\nQuarter Quarter Total\nVisitors 100 90 190\nTours 10 11 21`);
    expect(found.map((g) => g.period)).to.deep.equal([2021, 2020]);
    expect(answerFromTables('How many visitors came in the first quarter of 2020?', found)?.cells.map((c) => c.value)).to.deep.equal([100]);
  });
});

describe('headers read by the page geometry (cells apart by " | ", adapters/extraction/table-headings.ts)', () => {
  const OBLIGATIONS = `Contractual Obligations\nTotal | Less Than 1 Year | 1-3 Years | 3-5 Years | More Than 5 Years\n(in thousands)
Operating leases $98,389 $37,427 $36,581 $12,556 $11,825\nPurchase obligations 424,561 345,498 28,946 13,442 36,675\nTotal $522,950 $382,925 $65,527 $25,998 $48,500`;

  it('takes each cell for a column, a year it names as the column’s period, a cell without heading as unnamed, and note references as no column', () => {
    expect(splitUnits(OBLIGATIONS).map((u) => u.kind)).to.deep.equal(['heading', 'columns', 'sentence', 'row', 'row', 'row']);
    const [grid] = grids(OBLIGATIONS);
    expect(grid.columns.map((c) => c.label)).to.deep.equal(['Total', 'Less Than 1 Year', '1-3 Years', '3-5 Years', 'More Than 5 Years']);
    expect(grid.unit).to.deep.include({ multiplier: 1000 });
    const [change] = grids('Notes | Fiscal 2019 | Fiscal 2018 | 2019 over 2018 | —\nModules 1,460 502 958 191%\nSystems 1,603 1,742 (139) (8)%');
    expect(change.columns.map((c) => [c.label, c.year])).to.deep.equal([['Fiscal 2019', 2019], ['Fiscal 2018', 2018], ['2019 over 2018', undefined], ['', undefined]]);
  });

  it('answers from the column a question names by its words, and a year’s column among several of that year by the words it holds', () => {
    const [grid] = grids(OBLIGATIONS);
    expect(answerFromTables('What were the purchase obligations due in more than 5 years?', [grid])?.line).to.equal('Purchase obligations, More Than 5 Years: $36,675 thousand');
    expect(answerFromTables('What were the purchase obligations due in 1-3 years?', [grid])?.cells.map((c) => c.value)).to.deep.equal([28946]);
    const [customers] = grids('August 31, 2019 | Net additions August 31, 2019 | Net additions August 31, 2018\nInternet customers 446,137 21,189 21,417\nVideo customers 312,555 (4,697) (6,760)');
    expect(answerFromTables('What were the net additions of internet customers in 2019?', [customers])?.cells.map((c) => c.value)).to.deep.equal([21189]);
    expect(answerFromTables('How many internet customers were there in 2019?', [customers])?.cells.map((c) => c.value)).to.deep.equal([446137]);
  });

  it('keeps a table whole across a short title above a row, and reads "… in the total X" of row X as its own Total column', async () => {
    const [notes] = grids('2021 2020\nOffice rent 4,339 3,538\nMotor vehicle 51 96\nTraining costs expensed\nTraining costs incurred 18,478 17,793');
    expect(notes.rows.map((r) => [r.label, r.section])).to.deep.equal([['Office rent', undefined], ['Motor vehicle', undefined], ['Training costs incurred', 'Training costs expensed']]);
    const [grid] = grids(OBLIGATIONS);
    expect(answerFromTables('What is the percentage of the purchase obligations due in more than 5 years in the total purchase obligations?', [grid])?.computed?.value).to.be.closeTo(8.64, 0.01);
    expect(answerFromTables('What is the percentage of operating leases in the total obligations?', [grid])?.line).to.match(/^Operating leases as a share of Total/);
  });

  it('takes the year of a line over columns that name none as the table’s period, and leaves prose that holds the separator alone', () => {
    const [grid] = grids('Fiscal 2019\nFirst Quarter | Second Quarter | Total\nRevenues $94,888 $96,037 $190,925\nGross margin 40.1% 41.5% 40.8%');
    expect(grid.period).to.equal(2019);
    expect(answerFromTables('What was the revenue in the second quarter of fiscal 2019?', [grid])?.cells.map((c) => c.value)).to.deep.equal([96037]);
    expect(splitUnits('Home | About us and what we have done since we were founded in the spring of 1998 | Contact').map((u) => u.kind)).to.deep.equal(['sentence']);
  });
});

describe('rows listed and amounts beside their shares', () => {
  it('sums or averages the rows a question lists, in the period asked', () => {
    const text = `2021 2020\nFerry tickets 2,400 2,000\nSeason passes 900 1,000\nGift cards 100 50`;
    expect(answerFromTables('What is the sum of ferry tickets and season passes in 2020?', grids(text))?.line).to.equal('Sum of Ferry tickets and Season passes, 2020: 3,000 (2,000 + 1,000 = 3,000)');
    expect(answerFromTables('What is the average of ferry tickets, season passes and gift cards in 2021?', grids(text))?.computed?.value).to.equal(1133.33);
    // One row over two periods stays a sum of its periods.
    expect(answerFromTables('What is the sum of gift cards in 2020 and 2021?', grids(text))?.computed?.value).to.equal(150);
  });

  it('reads the rows a look-up asks "respectively", and a weighted average as a row’s name, not an operation', () => {
    const text = `2021 2020\nHarbour dues 9.46 8.70\nPilot fees 109.01 110.43\nBerth fees 1,165.70 1,100.50`;
    expect(answerFromTables('What are the weighted-average fees for pilot fees and berth fees for the year ended December 31, 2020, respectively?', grids(text))?.line)
      .to.equal('2020: Pilot fees: 110.43; Berth fees: 1,100.50');
    expect(operationAsked('What was the weighted average number of passes in 2021?')).to.equal('lookup');
    expect(operationAsked('What was the average number of passes in 2021 and 2020?')).to.equal('average');
  });

  it('reads "the respective A and B", and a section’s one row as what the section names', () => {
    const text = `2020 2021\nSales:\nTicket and season pass sales to members $30,303 $26,069\nPurchases\nPurchases of fuel, spare parts and services 303,793 256,660\nDistributions:\nDividends paid 52,983 54,810`;
    expect(answerFromTables('What are the respective sales and purchases for 2020?', grids(text))?.line)
      .to.equal('2020: Ticket and season pass sales to members: $30,303; Purchases of fuel, spare parts and services: $303,793');
  });

  it('reads small negatives as figures, not footnote marks, when there is one a column', () => {
    const text = '2021 2020 2019\nHarbour dues $132 $52 $65\nBerth repairs (1) (8) (9)\nCrane hire 7 8 4';
    expect(grids(text)[0].rows.map((r) => [r.label, r.section])).to.deep.equal([['Harbour dues', undefined], ['Berth repairs', undefined], ['Crane hire', undefined]]);
    expect(answerFromTables('What was the change in berth repairs from 2020 to 2021?', grids(text))?.line).to.equal('Change in Berth repairs from 2020 to 2021: $7 ((−1) − (−8) = 7)');
    // One mark after a label heads the rows below it, as before.
    expect(grids('2021 2020 2019\nFees (cents per ticket) (1)\nAdults 132 52 65\nChildren 7 8 4')[0].rows[0].section).to.equal('Fees (cents per ticket)');
  });

  it('reads the years’ amounts of a row whose change column is left blank when the change it prints agrees with them', () => {
    const text = '2021 | 2020 | Actual | % Change Comp.\nOrders 12,749 11,875 7 % 7 %\nAdjusted margin 482 483 0 %\nFerry tickets 900 (10)%';
    expect(answerFromTables('What was the adjusted margin in 2021?', grids(text))?.line).to.equal('Adjusted margin, 2021: 482');
    // A figure that is not the change of the two before it: a cell is missing, nothing is read.
    expect(answerFromTables('What was the adjusted margin in 2021?', grids(text.replace('482 483 0 %', '482 483 9 %')))).to.equal(undefined);
  });

  it('takes a label’s own words for its name, not for the operation asked ("Share of …", "Average …")', () => {
    const text = '2021 2020\nShare of profit of associates (0.3) 2.3\nAverage invested capital 923.1 735.6\nImpairment (7.4) 1.0';
    expect(answerFromTables('What was the change in Share of profit of associates from 2020 to 2021?', grids(text))?.line).to.equal('Change in Share of profit of associates from 2020 to 2021: −2.6 ((−0.3) − 2.3 = −2.6)');
    expect(answerFromTables('What was the change in Average invested capital from 2020 to 2021?', grids(text))?.line).to.equal('Change in Average invested capital from 2020 to 2021: 187.5 (923.1 − 735.6 = 187.5)');
    expect(answerFromTables('What was the average Average invested capital in 2020 and 2021?', grids(text))?.operation).to.equal('average');
  });

  it('splits a list of rows between labels that hold "and" or a comma, not inside them', () => {
    const text = '2021 2020\nLand and buildings 1,949 1,900\nPlant and equipment, net 138,755 120,000\nNet change in cash (16) (5)\nExchange effects on cash 4 (4)';
    expect(answerFromTables('What was the sum of Land and buildings and Plant and equipment, net in 2021?', grids(text))?.line).to.match(/\(1,949 \+ 138,755 = 140,704\)$/);
    expect(answerFromTables('What was the difference between Plant and equipment, net and Land and buildings in 2021?', grids(text))?.line).to.match(/\(138,755 − 1,949 = 136,806\)$/);
    // "Net change in cash" names the row: the question asks its figure, or a sum with it, not a change.
    expect(answerFromTables('What was the Net change in cash in 2021?', grids(text))?.line).to.equal('Net change in cash, 2021: −16');
    expect(answerFromTables('What was the sum of Net change in cash and Exchange effects on cash in 2021?', grids(text))?.line).to.match(/= −12\)$/);
  });

  it('reads a year’s amount under a header whose years each head an amount and its share', () => {
    const text = `2021 2020 Change\nAmount % of total Amount % of total ($) (%)\nFerry tickets $ 2,400 60% $ 2,000 57% 400 20\nSeason passes 1,600 40 1,500 43 100 7`;
    const [grid] = grids(text);
    expect(grid.rows.map((r) => r.label)).to.deep.equal(['Ferry tickets', 'Season passes']);
    expect(answerFromTables('What was the average of season passes in 2021 and 2020?', [grid])?.computed?.value).to.equal(1550);
  });
});

describe('periods and units as reports print them', () => {
  it('reads a fiscal year’s short form as its year, in the header and in the question', () => {
    const [grid] = grids(`Harbour results\nF21 F20 CHANGE\n$ MILLION 53 WEEKS 52 WEEKS\nDues 8,657 8,244 5.0%\nFees 579 603 (4.1)%`);
    expect(grid.columns.map((c) => c.year)).to.deep.equal([2021, 2020, undefined]);
    expect(answerFromTables('What is the average value of fees for both F21 and F20?', [grid])?.computed?.value).to.equal(591);
  });

  it('reads a split year ("2020/21") as the fiscal year it ends in, in the header and in the question', () => {
    const [split] = grids(`2020/21 2019/20\nDues 8,657 8,244\nFees 579 603`);
    expect(split.columns.map((c) => c.year)).to.deep.equal([2021, 2020]);
    const [dated] = grids(`52 weeks ended 27 Mar 2021 £m | 52 weeks ended 28 Mar 2020 £m\nDues 8,657 8,244\nFees 579 603`);
    expect(answerFromTables('What were the fees in 2019/20?', [dated])?.cells[0].value).to.equal(603);
    expect(answerFromTables('What were the fees in 1999-00?', grids(`1999-00 1998-99\nDues 8,657 8,244\nFees 579 603`))?.cells[0].value).to.equal(579);
  });

  it('takes the one year a short line over a stacked header names for the period of a table whose columns name none', () => {
    const text = ['As of December 31, 2021', 'Amortized Unrealized Fair', 'Cost Gains Value', 'Berth bonds $129,499 $3,433 $126,066', 'Total $229,199 $5,414 $223,785',
      'As of December 31, 2020', 'Amortized Unrealized Fair', 'Cost Gains Value', 'Berth bonds $73,798 $14,234 $87,797', 'Total $171,021 $14,650 $179,000'].join('\n');
    expect(grids(text).map((g) => g.period)).to.deep.equal([2021, 2020]);
    expect(answerFromTables('What is the difference between the total fair value and total amortized cost at 2020?', grids(text))?.computed?.value).to.equal(7979);
  });

  it('takes a short line ending on a colon above the header for the table’s title, whose words name its rows too', () => {
    const [grid] = grids(`Annual Report\n7. HARBOUR FEES:\n2021 2020\nCurrent: Berths $1,139 $1,294\nCurrent: Moorings 428 423\nDeferred: Berths 34 (470)\nTotal fees $1,609 $1,164`);
    expect(grid.title).to.equal('7. HARBOUR FEES:');
    expect(answerFromTables('What are the respective values of the current berths fees in 2020 and 2021?', [grid])?.confidence).to.be.above(0.75);
  });

  it('reads a header line with a unit in brackets among its years, and words printed after each year as the years’ own', () => {
    expect(grids(`Number of passes (1,000) 2021 2020 2019\nIssued 1,001.1 907.3 866.6\nReturned 52.4 10.0 3.1`)[0].columns.map((c) => c.year)).to.deep.equal([2021, 2020, 2019]);
    const [sales] = grids(`Route Season 2021 Tickets Season 2020 Tickets % Inc (Dec)\nNorth 2,804.0 2,753.0 2%\nSouth 793.4 843.5 (6)%`);
    expect(sales.columns.map((c) => c.label)).to.deep.equal(['2021', '2020', '% Inc Dec']);
  });

  it('reads a change column that prints "nm" (not meaningful) as nil: the rows stay a table', () => {
    const text = `2021 2020 Amount % Change\n(dollars in thousands) Other income (expense):\nToll income $ 2,515 $ 1,310 $ 1,205 92 %\nToll expense (5,940) (598) (5,342) nm\nOther, net (356) (3,439) 3,083 nm`;
    expect(grids(text)[0].rows.map((r) => r.label)).to.deep.equal(['Toll income', 'Toll expense', 'Other, net']);
    expect(answerFromTables('What was the average toll income for 2020 and 2021?', grids(text))?.computed?.value).to.equal(1912.5);
  });

  it('reads a line of years followed by the units of change columns as the header ("2019 2018 $ %")', () => {
    const text = `December\n31,\nChange\n2021 2020 $ %\nNet fares $ 93,662 $ 103,350 $ (9,688) (9.4%)\nCoach hire $ 11,062 $ 13,477 $ 2,415 17.9%\nLicences $ 192 $ 631 $ 439 69.6%`;
    const [grid] = grids(text);
    expect(grid.columns.slice(0, 2).map((c) => c.year)).to.deep.equal([2021, 2020]);
    expect(grid.rows.map((r) => r.label)).to.deep.equal(['Net fares', 'Coach hire', 'Licences']);
    expect(answerFromTables('What is the total coach hire altogether for years ended December 31, 2020 and 2021?', [grid])?.computed?.value).to.equal(24539);
  });

  it('takes the scale a bracket names over a scale word of the prose above', () => {
    expect(tableUnitOf(['Ticket sales in the new season were $1.73 billion. ($ in millions)'])).to.deep.include({ scale: 'million' });
  });

  it('reads a dash where a figure stands as nil in what it computes, not "n/a" or "nm"', () => {
    const text = `2021 2020 2019\nRealized gains on swaps — (42,271) (25,733)\nOther gains n/a 1,200 900`;
    expect(answerFromTables('What is the change in realized gains on swaps from 2020 to 2021?', grids(text))?.computed?.value).to.equal(42271);
    expect(answerFromTables('What is the change in other gains from 2020 to 2021?', grids(text))).to.equal(undefined);
  });

  it('reads each column of the year asked that the question names by its own words ("at June 30 and December 31, 2021")', () => {
    const text = `Estimated at June 30, 2021 | Adjustments | Final as of December 31, 2021\nBerth fees adjustment (38) 20 (18)\nTotal consideration 3,757 20 3,777`;
    expect(answerFromTables('What are the respective berth fees adjustment at June 30 and December 31, 2021?', grids(text))?.cells.map((c) => c.value)).to.deep.equal([-38, -18]);
    expect(answerFromTables('What was the berth fees adjustment at December 31, 2021?', grids(text))?.cells.map((c) => c.value)).to.deep.equal([-18]);
  });

  it('compares a table’s items: a row’s cells under columns named by words, else the cells down the column asked, totals left out', () => {
    const segments = grids(`North Harbour | South Harbour | East Harbour | Total\nNet balances at September 30, 2021 49,786 138,127 145,713 333,626\nAcquisitions 206,988 40,392 — 247,380`);
    expect(answerFromTables('In which harbour were the net balances at September 30, 2021 the largest?', segments)?.line)
      .to.equal('East Harbour: Net balances at September 30, 2021, the largest. (North Harbour: 49,786; South Harbour: 138,127; East Harbour: 145,713)');
    const fees = grids(`2021 2020\nBerth fees $130,000 $12,700,000\nMooring fees 2,907,000 3,086,000\nTotal fees $3,037,000 $15,786,000`);
    expect(answerFromTables('For 2021, which fee contributed the least to total fees?', fees)?.line).to.match(/^Berth fees: 2021, the smallest\. \(Berth fees: 130,000; Mooring fees: 2,907,000\)$/);
    // Asked of periods ("In which year …"), it is the periods' comparison; asked nothing superlative, no comparison.
    expect(answerFromTables('In which year were the mooring fees the largest?', fees)?.line).to.match(/^2020: Mooring fees, the largest\./);
    expect(answerFromTables('Which fee was charged in 2021?', fees)?.operation).to.not.equal('compare');
    // How many of the items pass a threshold, down the column asked ("their lows" of "Range 2021 Low | High").
    const prices = grids(`Share price\nRange 2021 Low | High\nFirst Quarter $ 5.99 $ 8.40\nSecond Quarter $ 4.79 $ 6.48\nThird Quarter $ 2.66 $ 4.63\nFourth Quarter $ 1.88 $ 3.39`);
    expect(answerFromTables('In 2021, how many quarters had share prices lower than $2.00 during their lows?', prices)?.line).to.match(/^1 item \(Fourth Quarter\): Range 2021 Low below 2\. /);
    // "The maximum exposure", "minimum payments": a figure's name, no comparison.
    expect(answerFromTables('What was the maximum berth fee in 2021?', fees)?.operation).to.not.equal('compare');
  });

  it('takes the row of a table that has the year asked ("FY2021") over the same row restated in one that has none', () => {
    const restated = grids(`Reported | Impact of New Standards | Restated\nBerths, net 12,672 12,672\nCranes 5,559 5,559`);
    const dated = grids(`December 31, 2021 2020\nBerths, net 12,645 12,672\nCranes 7,840 5,559`);
    expect(answerFromTables('What is the year end FY2021 berths, net?', [...restated, ...dated])?.cells.map((c) => c.value)).to.deep.equal([12645]);
  });

  it('reads "the net difference in X" as X’s change, unless a row is itself named "Net change …"', () => {
    const text = `2021 2020 2019\nFerries $ 1,460 $ 502 $ 806\nBuses 1,603 1,742 2,134\nNet fares $ 3,063 $ 2,244 $ 2,940`;
    expect(answerFromTables('What is the net difference in fares of ferries between 2019 and 2021?', grids(text))?.computed?.value).to.equal(654);
    const cash = `2021 2020\nNet change in cash balance (16) (5)\nCash balance at end of year 513 525`;
    expect(answerFromTables('What is the average net change in cash balance across the 2 years?', grids(cash))?.computed?.value).to.equal(-10.5);
  });

  it('reads a roll-forward’s rows dated in their labels: the row of the year asked, and its cells under the columns named', () => {
    const text = `North Harbour | South Harbour | East Harbour | Total\nNet balances at September 30, 2020 $ 50,870 $ — $ 270,692 $ 321,562\nAcquisitions 206,988 40,392 — 247,380\nNet balances at September 30, 2021 $ 254,592 $ 181,424 $ 142,081 $ 578,097`;
    expect(answerFromTables('What is the difference between the net balances at September 30, 2021 between South Harbour and East Harbour?', grids(text))?.computed?.value).to.equal(39343);
    expect(answerFromTables('What is the average of the net balances at September 30, 2021 for North Harbour, South Harbour and East Harbour?', grids(text))?.computed?.value).to.equal(192699);
    // Of another year only ("2020"): no row of the one asked, no figure.
    const older = text.split('\n').filter((line) => !line.includes('2021')).join('\n');
    expect(answerFromTables('What is the average of the net balances at September 30, 2021 for North Harbour, South Harbour and East Harbour?', grids(older))).to.equal(undefined);
  });

  it('reads a change "from" one year alone as running from it to the latest period, and none from the latest', () => {
    const text = `2021 2020 2019\nToll income 1,344 723 610\nToll expense 228 190 150`;
    expect(answerFromTables('What was the increase in toll income from 2019?', grids(text))?.computed?.value).to.equal(734);
    expect(answerFromTables('What was the increase in toll income from 2021?', grids(text))).to.equal(undefined);
    expect(answerFromTables('What was the increase in toll income from 2019 to 2020?', grids(text))?.computed?.value).to.equal(113);
  });

  it('reads a row struck at the end of the period as the period’s figure, at its start only when asked', () => {
    const text = `2021 2020\nDeposits, beginning of the year 1,769.4 1,710.3\nAdditions during the year 866.9 —\nDeposits, end of the year 2,450.8 1,620.2`;
    expect(answerFromTables('What was the change in deposits from 2020 to 2021?', grids(text))?.computed?.value).to.equal(830.6);
    expect(answerFromTables('What were the deposits at the beginning of the year in 2021?', grids(text))?.cells[0].value).to.equal(1769.4);
  });
});

describe('answers from table cells', () => {
  it('picks the row the question names, not one that shares a word ("net income" is not "Other income — net")', () => {
    const answer = answerFromTables('What was the net income in 2019?', grids(INCOME));
    expect(answer?.line).to.equal('Consolidated Net Income, 2019: $8,985 million');
    expect(answer?.cells.map((c) => c.value)).to.deep.equal([8985]);
  });

  it('reads the header’s words over the labels as every row’s subject: the row named picks, not the total that repeats them', () => {
    const text = `PASSENGERS CARRIED Q4 2021 Q4 2020 $ CHANGE %\nNorth line 2,493 2,407 86 3.6%\nSouth line 3,138 3,137 1 –\nHarbour line 879 850 29 3.4%\nTransfers (194) (179) (15) (8.4%)\nTotal passengers carried 6,316 6,215 101 1.6%`;
    expect(answerFromTables('What is the sum of the passengers carried for North line in Q4 2021 and 2020?', grids(text))?.computed?.value).to.equal(4900);
  });

  it('answers the latest period when none is asked', () => {
    expect(answerFromTables('What were the net operating revenues?', grids(INCOME))?.line).to.equal('Net Operating Revenues, 2020: $33,014 million');
  });

  it('tells rows of the same label apart by their section', () => {
    const answer = answerFromTables('What were the revenues of Greater China in 2018?', grids(SEGMENTS));
    expect(answer?.line).to.equal('Greater China (Revenues), 2018: $5,134 million');
  });

  it('computes a change, a percentage change and an average from the cells', () => {
    expect(answerFromTables('What was the change in Fixed Price from 2018 to 2019?', grids(SALES))?.line)
      .to.equal('Change in Fixed Price from 2018 to 2019: $306.2 (1,452.4 − 1,146.2 = 306.2)');
    expect(answerFromTables('What was the percentage change in consolidated net income between 2018 and 2019?', grids(INCOME))?.line)
      .to.equal('Percentage change in Consolidated Net Income from 2018 to 2019: 38.74% ((8,985 − 6,476) / 6,476 = 38.74%)');
    expect(answerFromTables('What was the average Other sales in 2018 and 2017?', grids(SALES))?.computed?.value).to.equal(63.75);
  });

  it('computes a share of a total between two rows', () => {
    const answer = answerFromTables('What percentage of total sales was Fixed Price in 2019?', grids(SALES));
    expect(answer?.operation).to.equal('share');
    expect(answer?.computed?.value).to.equal(97.05);
    expect(answer?.cells.map((c) => c.row.label)).to.deep.equal(['Fixed Price', 'Total sales']);
  });

  it('reads a row that prints only the years’ figures, its change columns blank, under the years that lead the header', () => {
    const text = `2021 | 2020 | Actual | % Change\nFerry tickets 2,400 2,000 20% 18%\nTicket margin 4.7 % 5.3 %\nSeason passes 900 (10)%`;
    expect(answerFromTables('What was the change in the ticket margin from 2020 to 2021?', grids(text))?.line).to.match(/^Change in Ticket margin from 2020 to 2021: −0\.6/);
    // One figure short of the years: a cell is missing, and which one the row does not say.
    expect(answerFromTables('What were season passes in 2020?', grids(text))).to.equal(undefined);
  });

  it('reads a year’s line between blocks of rows as the next table’s period, under the words’ header printed once', () => {
    const text = `High Low\n2021:\nFourth Quarter $11.44 $9.47\nThird Quarter $14.96 $10.26\n2020:\nFourth Quarter $12.16 $7.43\nThird Quarter $20.60 $10.95`;
    const read = grids(text);
    expect(read.map((g) => [g.period, g.columns.map((c) => c.label).join(' '), g.rows.length])).to.deep.equal([[2021, 'High Low', 2], [2020, 'High Low', 2]]);
    expect(answerFromTables('What is the difference in the high and low prices in the fourth quarter of 2020?', read)?.line).to.match(/: \$?4\.73 /);
    // A look-up of both named columns reads each; an average of one named column with no row named runs down it.
    expect(answerFromTables('What were the high and low prices in the third quarter of 2021 respectively?', read)?.line).to.equal('Third Quarter, High: $14.96; Low: $10.26');
    expect(answerFromTables('What is the average low price for 2021?', read)?.line).to.match(/^Average Low \(2021\) of Fourth Quarter, Third Quarter: \$9\.87 /);
  });

  it('computes over tables of one period each, under one header of words: the same row under the column named', () => {
    const text = `Gross | Allowance for Losses | Net\nDecember 31, 2021\nTicket sales $12,863 $(238) $12,625\nTotal $19,731 $(238) $19,493\n` +
      `December 31, 2020\nTicket sales $14,704 $(168) $14,536\nTotal $15,568 $(168) $15,400`;
    const read = grids(text);
    expect(read.map((g) => g.period)).to.deep.equal([2021, 2020]);
    expect(answerFromTables('What was the change in the total gross between 2020 and 2021?', read)?.line).to.match(/^Change in Total, Gross from 2020 to 2021: \$4,163 /);
    expect(answerFromTables('What was the total allowance for losses in 2020?', read)?.cells.map((c) => c.value)).to.deep.equal([-168]);
    expect(answerFromTables('How many years did the total net exceed $15,000?', read)?.line).to.match(/^2 /);
    expect(answerFromTables('Which years does the table show?', read)?.line).to.equal('The table covers 2021 and 2020');
  });

  it('states an amount beside a percentage column in the table’s unit, not as a percentage', () => {
    const text = `(in thousands) 2021 2020 % Change\nFerry tickets 2,400 2,000 20%\nSeason passes 900 1,000 (10)%`;
    expect(answerFromTables('What were ferry tickets in 2021?', grids(text))?.line).to.equal('Ferry tickets, 2021: 2,400 thousand');
  });

  it('finds the two rows of a share whichever phrase names its row more surely', () => {
    const text = `2021 2020\nLocal income 210 180\nForeign income 60 40\nTotal income before taxes 270 220`;
    const answer = answerFromTables('What percentage of the total income before taxes does local income form a part of in 2021?', grids(text));
    expect(answer?.cells.map((c) => c.row.label)).to.deep.equal(['Local income', 'Total income before taxes']);
    expect(answer?.computed?.value).to.equal(77.78);
    expect(answerFromTables('What is the percentage of foreign income among the total income before taxes in 2020?', grids(text))?.computed?.value).to.equal(18.18);
  });

  it('takes a label that opens with the words asked, whatever qualifier or note reference follows', () => {
    const text = `2021 2020\nDeposits held (see Note 4) $310 $250\nInsurance claims receivable from the carrier for storm damage 96 12\nPrepayments 12 15`;
    expect(answerFromTables('What is the change in insurance claims receivable from 2020 to 2021?', grids(text))?.computed?.value).to.equal(84);
    expect(answerFromTables('What was the change in deposits held from 2020 to 2021?', grids(text))?.computed?.value).to.equal(60);
  });

  it('reads a label with only a footnote mark as the heading of the rows below it, its total row named by it', () => {
    const text = `(in millions) 2021 2020\nRevenue 1,200 1,100\nEarnings per share (cents per share) (1)\nContinuing operations 40.5 38.0\nDiscontinued operations 2.5 1.0\n43.0 39.0`;
    const answer = answerFromTables('What was the change in earnings per share (cents per share) from 2020 to 2021?', grids(text));
    expect(answer?.line).to.equal('Change in Earnings per share (cents per share) from 2020 to 2021: 4 (43 − 39 = 4)');
  });

  it('answers nothing when no row names what is asked', () => {
    expect(answerFromTables('What is the capital of France?', grids(INCOME))).to.equal(undefined);
    expect(answerFromTables('Who audited the statements?', grids(SALES))).to.equal(undefined);
    // "Total" alone names no "Total emissions" row when no label says what the total is of.
    const emissions = grids('2021 Tonnes 2020 Tonnes\nScope 1 144.7 137.2\nScope 2 4,641.0 4,950.4\nTotal emissions 4,785.7 5,087.6');
    expect(answerFromTables('What is the percentage change of total revenue from 2020 to 2021?', emissions)).to.equal(undefined);
    expect(answerFromTables('What is the percentage change of total emissions from 2020 to 2021?', emissions)?.computed).to.not.equal(undefined);
  });

  it('reads the operation from the intents table', () => {
    expect(operationAsked('What is the percentage change in revenue?')).to.equal('percent-change');
    expect(operationAsked('By how much did revenue increase?')).to.equal('change');
    expect(operationAsked('What is the average revenue?')).to.equal('average');
    // "%" after a space, and "mean" for an average, as people write them.
    expect(operationAsked('What is the % change in revenue?')).to.equal('percent-change');
    expect(operationAsked('What is the % of revenue from Europe?')).to.equal('share');
    expect(operationAsked('What is the mean revenue?')).to.equal('average');
    expect(operationAsked('What was the revenue in 2019?')).to.equal('lookup');
    expect(operationAsked('What is the change (%) for bookings between 2018 and 2019?')).to.equal('percent-change');
    expect(operationAsked('What percentage did sales increase by between F21 and F20?')).to.equal('percent-change');
    expect(operationAsked('What is the net percentage difference in net sales between 2017 and 2019?')).to.equal('percent-change');
    expect(operationAsked('What percentage of sales increased in 2021?')).to.equal('share');
    expect(operationAsked('What is the total rent paid across all 3 years?')).to.equal('sum');
    expect(operationAsked('How much more ferry revenue came from the north as compared to the south in 2021?')).to.equal('difference');
    const regions = grids('2021 2020\nNorth 18,030 17,200\nSouth 4,848 4,500\nWest 1,200 1,100');
    expect(answerFromTables('How much more ferry revenue came from the North as compared to the South in 2021?', regions)?.line).to.equal('Difference between North and South, 2021: 13,182 (18,030 − 4,848 = 13,182)');
  });
});

describe('questions about a table’s shape', () => {
  const DEPOT = `Depot costs (in thousands)\n2021 2020 2019\nBuildings:\nFencing 120 80 75\nLighting 45 60 50\nTotal buildings 165 140 125\nVehicles:\nVans 300 280 260\nForklifts 90 85 0\nTotal vehicles 390 365 260`;

  it('names the years a table covers', () => {
    const answer = structureAnswer('Which years does the table provide information for depot costs?', grids(DEPOT));
    expect(answer?.line).to.equal('The table covers 2021, 2020 and 2019');
    expect(structureAnswer('In which years were the vans recorded?', grids(DEPOT))?.operation).to.equal('periods');
    expect(structureAnswer('What are the years included in the table?', grids(DEPOT))?.line).to.equal('The table covers 2021, 2020 and 2019');
    // A table found in two passages: its parts agree on the years, though no word of the question names either.
    const [first, second] = [grids(DEPOT.split('\nVehicles:')[0]), grids(`Depot costs (in thousands)\n2021 2020 2019\nVehicles:${DEPOT.split('\nVehicles:')[1]}`)];
    expect(structureAnswer('Which years does the table show?', [...first, ...second])?.line).to.equal('The table covers 2021, 2020 and 2019');
    expect(structureAnswer('Which years does the table show?', [...first, ...grids('2018 2017\nFerries 1 2\nBuses 3 4')])).to.equal(undefined);
  });

  it('lists the items under a section, not its total', () => {
    const answer = structureAnswer('What are the items under vehicles?', grids(DEPOT));
    expect(answer?.line).to.equal('Vehicles: Vans and Forklifts');
    expect(answer?.cells.map((c) => c.row.label)).to.deep.equal(['Vans', 'Forklifts']);
  });

  it('counts the items under a section, leaving out the rows that total it ("Total vehicles")', () => {
    expect(structureAnswer('How many items are there under vehicles?', grids(DEPOT))?.line).to.equal('2 items: Vehicles: Vans and Forklifts');
    // Asked of a section no table names: no figure of some row stands in for the count.
    expect(answerFromTables('How many components are there under pensions?', grids(DEPOT))).to.equal(undefined);
  });

  it('reads a section named on the unit’s line, and leaves out what adjusts the section after its total', () => {
    // As a report prints it (TAT-QA dev): the unit's line runs on into the first section's name.
    const text = `2021 2020\n(Dollars in millions) Berth assets\nPontoons $1,169 1,111\nCranes 3,167 3,445\nOther 577 553\nGross berth assets 4,913 5,109\nLess wear allowance (1,319) (1,331)\nNet berth assets 3,594 3,778\nBerth liabilities\nLeases (3,489) (3,011)`;
    expect(structureAnswer('How many components are there under berth assets?', grids(text))?.line).to.equal('3 items: Berth assets: Pontoons, Cranes and Other');
  });

  it('finds a section under a section by its own name, and keeps an item that repeats a one-word section name', () => {
    // Two headings over the rows read as one section's name ("Observable markets data Equity securities").
    const nested = grids('2021 2020\nObservable markets data\nEquity securities\nDomestic 1,017 844\nForeign 4,534 3,770\nDebt securities\nDomestic 13,216 12,457\nForeign 2,385 2,004');
    expect(structureAnswer('What are the components under equity securities?', nested)?.line).to.match(/: Domestic and Foreign$/);
    const services = grids('2021 2020\nServices\nSoftware maintenance 4,754 4,351\nProfessional services 999 917\nTotal services 5,753 5,268');
    expect(structureAnswer('What are the components of services?', services)?.line).to.equal('Services: Software maintenance and Professional services');
  });

  it('lists a section named whole before one that holds its words, and leaves long labels and unnamed totals apart', () => {
    const sections = grids('2021 2020\nOther current assets\nPrepaid fees 98 145\nOther 306 357\n404 502\nOther assets\nDeposits 207 22\nOther 200 134\n407 156');
    expect(structureAnswer('What are the components of other assets?', sections)?.line).to.equal('Other assets: Deposits and Other');
    // A long label that holds the section's words is an item, not its total; a row of figures with no label is the total.
    const charges = grids('2021 2020\nHarbour-related charges\nDredging costs 27 14\nCharges associated with the upkeep of harbour related fair value works 3 8\n30 22\nRestructuring charges 255 126\nTotal 285 148');
    expect(structureAnswer('How many components are there under harbour-related charges?', charges)?.line)
      .to.equal('2 items: Harbour-related charges: Dredging costs and Charges associated with the upkeep of harbour related fair value works');
    const income = grids('2021 2020\nOther income (expense)\nInterest income 1,310 510\nInterest expense (598) (268)\nForeign exchange (expense) income and other, net (3,439) 6,892\nTotal other income (expense), net (2,727) 7,134');
    expect(structureAnswer('How many components are there under other income (expense)?', income)?.line).to.match(/^3 items: /);
    // A row that sums those above it is their total, whatever its name.
    const shares = grids('2021 2020\nDenominator\nShares used in basic computation 263 265\nDilutive impact of award plans 3 4\nShares used in diluted computation 266 269');
    expect(structureAnswer('How many components are there under denominator?', shares)?.line).to.match(/^2 items: /);
  });

  it('reads a label’s words, not its prepositions: "Granted" names "Granted during the period"', () => {
    const rights = grids('2021 2020\nOutstanding at start of period 10,692 6,737\nGranted during the period 4,465 5,691\nVested during the period (182) (586)\nLapsed during the period (1,497) (1,149)\nOutstanding at end of period 13,477 10,692');
    expect(answerFromTables('What was granted in 2021?', rights)?.line).to.equal('Granted during the period, 2021: 4,465');
    expect(answerFromTables('What was the sum of granted and vested in 2021?', rights)?.line).to.match(/^Sum of Granted during the period and Vested during the period, 2021: 4,283 /);
  });

  it('keeps a label’s own "for" and "to" whole in a list or a ratio, and finds rows listed in the table that holds them all', () => {
    const assets = grids('(In millions) 2021 2020\nAssets held for sale 2.8 0.6\nIncome tax receivables 32.8 58.4\nAdjustments to prior periods 1.7 (8.1)\nCurrent tax on overseas business 1.1 0.8');
    expect(answerFromTables('What was the sum of Assets held for sale and Income tax receivables in 2021?', assets)?.line).to.match(/^Sum of Assets held for sale and Income tax receivables, 2021: 35\.6 /);
    expect(answerFromTables('What was the ratio of Adjustments to prior periods to Current tax on overseas business in 2021?', assets)?.line).to.match(/: 1\.55 \(1\.7 \/ 1\.1 = 1\.55\)$/);
    // "Total cost of goods sold" written whole is the total, not "Cost of goods sold" above it.
    const costs = grids('2021 2020\nCost of goods sold 68,367 74,646\nDepreciation expense 3,146 2,846\nTotal cost of goods sold 71,513 77,492');
    expect(answerFromTables('What percentage of Total cost of goods sold was Depreciation expense in 2021?', costs)?.line).to.match(/ of Total cost of goods sold, 2021: 4\.4% /);
    // The first row printed again in a table's other part, which lacks the second: the rows come from the part with both.
    const parts = [...grids('(In millions) 2021 2020\nCash 262.4 271.7\nAssets held for sale 2.8 0.6'), ...assets];
    expect(answerFromTables('What was the sum of Assets held for sale and Income tax receivables in 2021?', parts)?.line).to.match(/: 35\.6 /);
  });

  it('compares the items of the section a question names, not every row of its table', () => {
    const taxes = grids('2021 2020\nDeferred tax assets\nLoss carryforwards 500 450\nAccrued expenses 120 110\nOther 30 25\nTotal deferred tax assets 650 585\nDeferred tax liabilities\nDepreciation (900) (800)\nIntangibles (60) (40)\nTotal deferred tax liabilities (960) (840)');
    expect(answerFromTables('Which component of deferred tax assets was the largest in 2021?', taxes)?.line)
      .to.equal('Loss carryforwards: 2021, the largest. (Loss carryforwards: 500; Accrued expenses: 120; Other: 30)');
    expect(answerFromTables('Which component of deferred tax assets was the smallest in 2021?', taxes)?.line).to.match(/^Other: 2021, the smallest\./);
    // How many of them pass a threshold is a comparison of their figures, not a count of the section's items.
    expect(answerFromTables('How many components of deferred tax assets exceeded 100 in 2021?', taxes)?.line).to.match(/^2 items \(Loss carryforwards and Accrued expenses\): 2021 above 100\./);
    expect(answerFromTables('How many components are there under deferred tax assets?', taxes)?.line).to.match(/^3 items: /);
  });

  it('reads the row whose label the question writes out whole, small words and all, of two with the same words', () => {
    const owed = grids('(£m) 2021 2020\nAmounts owed by members of the group 0.3 0.3\nAmounts owed to members of the group (0.1) (0.2)');
    expect(answerFromTables('What were the amounts owed to members of the group in 2021?', owed)?.line).to.match(/^Amounts owed to members of the group, 2021: /);
    expect(answerFromTables('What were the amounts owed by members of the group in 2021?', owed)?.line).to.match(/^Amounts owed by members of the group, 2021: /);
  });

  it('reads each row a look-up lists ("What were A and B in 2021?"), and one row whose label the list names whole', () => {
    const income = grids('(In thousands) 2021 2020\nNet sales 9,381 9,461\nCost of sales 5,000 5,100\nSales & marketing 1,200 1,100\nNet income 300 250');
    expect(answerFromTables('What were the net sales and net income in 2021?', income)?.line).to.equal('2021: Net sales: 9,381 thousand; Net income: 300 thousand');
    expect(answerFromTables('What were the sales and marketing expenses in 2021?', income)?.line).to.equal('Sales & marketing, 2021: 1,200 thousand');
  });

  it('lists what a total row sums when no section is named so ("the components of total fees")', () => {
    const fees = grids(`2021 2020\nBerth fees $130,000 $12,700,000\nMooring fees 2,907,000 3,086,000\nOther fees — 6,320,000\nTotal fees $3,037,000 $22,106,000`);
    expect(structureAnswer('What are the components of total fees?', fees)?.line).to.equal('Total fees: Berth fees, Mooring fees and Other fees');
  });

  it('leaves alone a question about when something happened, which period is higher, or a section no table has', () => {
    expect(structureAnswer('In which period did the depot open?', grids(DEPOT))).to.equal(undefined);
    expect(structureAnswer('In which year were the vans higher?', grids(DEPOT))).to.equal(undefined);
    expect(structureAnswer('What are the components of the pension plan?', grids(DEPOT))).to.equal(undefined);
  });
});
