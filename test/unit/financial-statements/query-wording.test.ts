import { expect } from 'chai';
import { rewriteFiscalYears, yearsNamed } from '../../../adapters/financial-statements/fiscal-years.js';
import { lexicalQuery, lineItemQuery } from '../../../adapters/financial-statements/query-wording.js';
import { statementOf, titleOf } from '../../../adapters/financial-statements/statements.js';

describe('lexicalQuery', () => {
  it('writes fiscal years as the filings do and adds the statements\' wording for analyst terms', () => {
    const q = lexicalQuery('What is the FY2018 capital expenditure (in USD millions) from the cash flow statement? Round to two decimal places.');
    expect(q).to.include(' 2018 ').and.not.include('fy2018');
    expect(q).to.include('purchases property plant equipment');
    expect(q).to.include('consolidated statements of cash flows');
    expect(lexicalQuery('What is FY18 COGS?')).to.include(' 2018 ').and.include('cost of revenue');
  });

  it("names officers by the titles filings write ('CEO' is 'Chief Executive Officer' there)", () => {
    expect(lexicalQuery('Who is the CEO?')).to.equal('chief executive officer who is the ceo?');
    expect(lexicalQuery('Who signed as CFO?')).to.include('chief financial officer');
    expect(lexicalQuery('Who is the CEOs assistant?')).to.equal('who is the ceos assistant?');
  });

  it('leaves a question without such terms as it was, lower-cased', () => {
    expect(lexicalQuery('When was the treaty of Warsaw signed?')).to.equal('when was the treaty of warsaw signed?');
  });

  it('leaves statement titles out of the wording used to match rows', () => {
    expect(lineItemQuery('Total debt in the balance sheet')).to.include('long-term debt').and.not.include('consolidated balance sheets');
  });
});

describe('fiscal years', () => {
  it('reads every way a question writes one, and leaves other numbers alone', () => {
    const write = (year: number) => `<${year}>`;
    expect(rewriteFiscalYears("FY2018, FY 2017, fy'16 and FY15", write)).to.equal("<2018>, <2017>, <2016> and <2015>");
    expect(rewriteFiscalYears('FY201 and FYI 2018', write)).to.equal('FY201 and FYI 2018');
  });

  it('names the years of a question, fiscal or bare, in order', () => {
    expect(yearsNamed('Compare FY18 with 2016 and FY 2017 (3 years, 1,200 units)')).to.deep.equal([2018, 2016, 2017]);
    expect(yearsNamed('How many people live there?')).to.deep.equal([]);
  });
});

describe('statement names', () => {
  it('tells a statement by its heading, and gives its title', () => {
    expect(statementOf('CONSOLIDATED BALANCE SHEETS')).to.equal('balance');
    expect(statementOf('Consolidated Statements of Cash Flows')).to.equal('cash');
    expect(statementOf('Consolidated Statements of Operations')).to.equal('income');
    expect(statementOf('Notes to the Financial Statements')).to.equal(undefined);
    expect(titleOf('cash')).to.equal('consolidated statements of cash flows');
  });
});
