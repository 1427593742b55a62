import { expect } from 'chai';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { chunkPages } from '../../../core/rag/chunking.js';
import { lineItemFor } from '../../../adapters/financial-statements/financial-line-items.js';
import { lookUp, statementRows } from '../../../adapters/financial-statements/statement-lookup.js';

const passage = (ref: string, page: number, text: string): ContextPassage => ({ ref, filename: 'acme.pdf', page, text, score: 1 });

/** A balance sheet and a cash-flow statement as chunking renders them: title, column years, one row a line. */
const BALANCE = passage('1', 30, ['ACME WIDGETS, INC.', 'CONSOLIDATED BALANCE SHEETS', '(in millions)', 'December 31,', '2020 2021', 'Inventories 1,250 1,400', 'Total current assets $ 5,000 $ 5,600', 'Property and equipment, net 2,000 2,400'].join('\n'));
const CASH = passage('2', 32, ['CONSOLIDATED STATEMENTS OF CASH FLOWS', '2019 2020 2021', 'Inventories (90) (110) (150)', 'Purchases of property and equipment (300) (350) (420)'].join('\n'));
const item = (phrase: string) => lineItemFor(phrase)!;

describe('statement line items by fiscal year', () => {
  it('reads each row’s figures under the years of its column header, with the statement and unit', () => {
    const rows = statementRows([BALANCE, CASH]);
    const inventories = rows.find((r) => r.passage === BALANCE && r.label === 'inventories')!;
    expect([...inventories.values]).to.deep.equal([[2020, 1250], [2021, 1400]]);
    expect(inventories.statement).to.equal('balance');
    expect(inventories.unit).to.equal('millions');
    expect(rows.find((r) => r.passage === CASH && r.label === 'inventories')!.values.get(2021)).to.equal(-150);
  });

  it('takes a balance-sheet item from the balance sheet, never the cash-flow change of the same name', () => {
    const found = lookUp(statementRows([CASH, BALANCE]), item('inventory'), 2021)!;
    expect(found.value).to.equal(1400);
    expect(found.row.passage.page).to.equal(30);
  });

  it('uses outflows printed in parentheses as amounts', () => {
    expect(lookUp(statementRows([CASH]), item('capital expenditures'), 2020)!.value).to.equal(350);
  });

  it('finds nothing for a year the table does not print, or when equally good rows disagree', () => {
    expect(lookUp(statementRows([BALANCE]), item('inventory'), 2019)).to.equal(undefined);
    const other = passage('3', 31, ['CONSOLIDATED BALANCE SHEETS', '2020 2021', 'Inventories 1,250 1,480'].join('\n'));
    expect(lookUp(statementRows([BALANCE, other]), item('inventory'), 2021)).to.equal(undefined);
  });

  it('reads a column header the text layer broke over lines, and chunking carries it to the next chunks', () => {
    const broken = ['CONSOLIDATED BALANCE SHEETS', 'June 30,', '2021 June 30,', '2020 ASSETS', 'Total current assets 3,100 2,900'].join('\n');
    expect(lookUp(statementRows([passage('1', 5, broken)]), item('total current assets'), 2020)!.value).to.equal(2900);
    const rows = Array.from({ length: 40 }, (_, i) => `Line item number ${i} ${100 + i} ${200 + i}`);
    const chunks = chunkPages([{ page: 5, text: [broken, ...rows].join('\n'), method: 'text' }]);
    expect(chunks.length).to.be.greaterThan(1);
    expect(chunks.at(-1)!.text.split('\n')).to.include('2021 2020');
  });
});
