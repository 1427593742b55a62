import { expect } from 'chai';
import { describe as describeFormula, itemsOf } from '../../../adapters/financial-statements/financial-formula.js';
import { computedFigureRequest, lineItemSearches } from '../../../adapters/financial-statements/financial-metrics.js';

const needs = (question: string) => itemsOf(computedFigureRequest(question)!.expr).map((i) => `${i.item.key}@${i.year}`).sort();

describe('computed figure questions', () => {
  it('takes the formula from a definition the question gives, with its years, rounding and name', () => {
    const request = computedFigureRequest(
      'What is Widgetco’s FY2021 days inventory outstanding (DIO)? DIO is defined as: 365 * (average inventory between FY2020 and FY2021) / (FY2021 COGS). Round your answer to one decimal place.',
    )!;
    expect(request.metric).to.equal('DIO');
    expect(request.decimals).to.equal(1);
    expect(request.percent).to.equal(false);
    expect(request.formula).to.equal('(365 × average inventories (FY2020, FY2021)) ÷ cost of goods sold FY2021');
  });

  it('reads "Define X as" and lets a defined formula name lines the vocabulary does not know', () => {
    const request = computedFigureRequest('What is the FY2022 gadget ratio of Acme? Define gadget ratio as total gadgets divided by total assets.')!;
    expect(request.metric).to.equal('gadget ratio');
    expect(needs('What is the FY2022 gadget ratio of Acme? Define gadget ratio as total gadgets divided by total assets.')).to.deep.equal(['total gadgets@2022', 'total-assets@2022']);
  });

  it('falls back on the textbook definition of a named metric, averages over the opening and closing year', () => {
    expect(needs('What is the FY2020 fixed asset turnover ratio for Acme?')).to.deep.equal(['ppe@2019', 'ppe@2020', 'revenue@2020']);
    expect(needs('What is Acme’s FY2020 free cash flow in USD millions?')).to.deep.equal(['capex@2020', 'operating-cash-flow@2020']);
    const ccc = computedFigureRequest('What was the cash conversion cycle of Acme in FY2020?')!;
    expect(itemsOf(ccc.expr).map((i) => i.item.key)).to.include.members(['inventory', 'receivables', 'payables', 'cogs', 'revenue']);
    const fcf = computedFigureRequest('What is Acme’s FY2020 free cash flow in USD millions?')!;
    expect(fcf.amount).to.equal(true);
    expect(fcf.unit).to.equal('millions');
  });

  it('reads averages over a span of years, year-over-year changes and shares of revenue', () => {
    const average = computedFigureRequest('What is the FY2018 - FY2020 3 year average operating margin (as a %) for Acme?')!;
    expect(average.metric).to.equal('3-year average operating margin');
    expect(average.percent).to.equal(true);
    expect(average.expr.kind).to.equal('mean');
    const change = computedFigureRequest('What is Acme’s year-over-year change in revenue from FY2019 to FY2020 (in percents)?')!;
    expect(describeFormula(change.expr)).to.equal('(revenue FY2020 − revenue FY2019) ÷ revenue FY2019');
    expect(change.percent).to.equal(true);
    const share = computedFigureRequest('What is Acme’s FY2020 capex as a % of revenue?')!;
    expect(share.metric).to.equal('capital expenditure as a percentage of revenue');
    // An average over years of a share: each year's share, not the share of an opening-and-closing average.
    expect(needs('What is the FY2018 - FY2020 3 year average of capex as a % of revenue for Acme?')).to.deep.equal([
      'capex@2018', 'capex@2019', 'capex@2020', 'revenue@2018', 'revenue@2019', 'revenue@2020',
    ]);
  });

  it('is not triggered by questions that ask for no computed financial figure', () => {
    for (const question of [
      'What was the ratio of students to teachers in 2010?',
      'When did the university open its medical school?',
      'What is the FY2020 revenue of Acme?',
      'What is the current ratio of the company?',
      'How did the margin of victory change between 1996 and 2000?',
    ]) expect(computedFigureRequest(question), question).to.equal(undefined);
    expect(lineItemSearches('When did the university open its medical school?')).to.deep.equal([]);
  });

  it('searches the single line a figure question reads by name, but not a line a prose question mentions', () => {
    expect(computedFigureRequest('What is the FY2016 COGS for Acme Widgets?')).to.equal(undefined);
    expect(lineItemSearches('What is the FY2016 COGS for Acme Widgets?').map((s) => s.text)).to.deep.equal([
      'cost of sales cost of revenue cost of goods sold 2016 consolidated statements of income operations earnings',
    ]);
    expect(lineItemSearches('How much total assets did Acme have at the end of FY2021?')).to.have.length(1);
    expect(lineItemSearches('What is the main driver of revenue growth in FY2019?')).to.deep.equal([]);
    expect(lineItemSearches('What was the revenue of the Roman empire in the first century?')).to.deep.equal([]);
  });

  it('searches each line item by its statement wording and years, keeping the hits that print its row', () => {
    const searches = lineItemSearches('What is the FY2021 current ratio for Acme?');
    expect(searches.map((s) => s.text)).to.deep.equal([
      'total current assets 2021 consolidated balance sheets',
      'total current liabilities 2021 consolidated balance sheets',
    ]);
    expect(searches.map((s) => s.limit)).to.deep.equal([50, 50]);
    const hit = (page: number, text: string) => ({ score: 1, chunk: { id: `c${page}`, sessionId: 's', jobId: 'j', filename: 'a.pdf', page, ordinal: page, text, tags: {} } });
    const hits = [
      hit(4, 'Liquidity\nTotal current assets rose in 2021 on higher cash.'),
      hit(9, 'Consolidated Balance Sheets\n2021 2020\nTotal current assets 1,200 1,100'),
    ];
    expect(searches[0].holding(hits).map((h) => h.chunk.page)).to.deep.equal([9]);
    expect(searches[1].holding(hits)).to.deep.equal([]);
  });
});
