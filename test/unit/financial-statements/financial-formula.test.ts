import { expect } from 'chai';
import { describe as describeFormula, evaluate, isAmount, itemsOf, parseFormula, type Expr } from '../../../adapters/financial-statements/financial-formula.js';
import { lineItemFor } from '../../../adapters/financial-statements/financial-line-items.js';

/** Phrases as line items in the given year, "FY2020 x" taking its own year: enough to exercise the grammar. */
const resolve = (phrase: string, year: number): Expr | undefined => {
  const dated = /^FY(\d{4}) (.+)$/.exec(phrase);
  const item = lineItemFor(dated ? dated[2] : phrase, true);
  return item && { kind: 'item', item, year: dated ? Number(dated[1]) : year };
};

const VALUES: Record<string, number> = { 'revenue@2021': 500, 'revenue@2020': 400, 'cogs@2021': 300, 'gadgets@2021': 7 };
const valueOf = (item: { key: string }, year: number) => VALUES[`${item.key}@${year}`];

describe('financial formulas', () => {
  it('parses symbols and words as operators, with precedence and parentheses', () => {
    const expr = parseFormula('(revenue - cost of sales) divided by revenue', 2021, resolve)!;
    expect(evaluate(expr, valueOf)).to.be.closeTo((500 - 300) / 500, 1e-12);
    const sum = parseFormula('100 * revenue / FY2020 revenue - 100', 2021, resolve)!;
    expect(evaluate(sum, valueOf)).to.be.closeTo(25, 1e-12);
    expect(itemsOf(sum).map((i) => `${i.item.key}@${i.year}`)).to.deep.equal(['revenue@2021', 'revenue@2020']);
  });

  it('keeps a dash inside a word as part of the phrase, and reads a spaced dash as minus', () => {
    const expr = parseFormula('revenue – cogs', 2021, resolve)!;
    expect(evaluate(expr, valueOf)).to.equal(200);
    const hyphenated = parseFormula('non-current gadgets', 2021, resolve)!;
    expect(hyphenated.kind).to.equal('item');
  });

  it('refuses text that does not parse or names nothing known', () => {
    expect(parseFormula('revenue / (cogs', 2021, resolve)).to.equal(undefined);
    expect(parseFormula('revenue / ', 2021, resolve)).to.equal(undefined);
    expect(parseFormula('revenue / 7', 2021, () => undefined)).to.equal(undefined);
  });

  it('has no value when an input is missing or a divisor is zero', () => {
    const expr = parseFormula('revenue / gadgets', 2021, resolve)!;
    expect(evaluate(expr, valueOf)).to.be.closeTo(500 / 7, 1e-12);
    expect(evaluate(expr, () => undefined)).to.equal(undefined);
    expect(evaluate(parseFormula('revenue / 0', 2021, resolve)!, valueOf)).to.equal(undefined);
  });

  it('tells amounts from ratios and describes the formula in words', () => {
    expect(isAmount(parseFormula('revenue - cogs', 2021, resolve)!)).to.equal(true);
    expect(isAmount(parseFormula('revenue / cogs', 2021, resolve)!)).to.equal(false);
    expect(describeFormula(parseFormula('revenue - cogs', 2021, resolve)!)).to.equal('revenue FY2021 − cost of goods sold FY2021');
  });
});
