import { expect } from 'chai';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { computedFigureAnswer, formatFigure } from '../../../adapters/financial-statements/computed-figure.js';
import { createExtractiveAnswerer } from '../../../adapters/answer-plugins/index.js';

const passage = (ref: string, page: number, text: string): ContextPassage => ({ ref, filename: 'acme-10k.pdf', page, text, score: 1 });
const INCOME = passage('1', 40, ['CONSOLIDATED STATEMENTS OF OPERATIONS', '(in thousands)', '2019 2020 2021', 'Total net revenue 80,000 90,000 120,000', 'Cost of revenue 50,000 54,000 66,000', 'Net income 4,000 (1,000) 9,000'].join('\n'));
const BALANCE = passage('2', 42, ['CONSOLIDATED BALANCE SHEETS', '2020 2021', 'Inventories 10,000 12,000', 'Accounts payable 6,000 7,500', 'Total assets 100,000 110,000'].join('\n'));
const ask = (question: string, contexts = [INCOME, BALANCE]) => computedFigureAnswer({ question, contexts, history: [] });

describe('computed figure answers', () => {
  it('computes a defined metric from the rows it needs, rounded as asked, quoting the rows with their years', () => {
    const answer = ask('What is Acme’s FY2021 DPO? DPO is defined as: 365 * (average accounts payable between FY2020 and FY2021) / (FY2021 COGS + change in inventory between FY2020 and FY2021). Round your answer to two decimal places.')!;
    // 365 × 6,750 / (66,000 + 2,000) = 36.23
    expect(answer.text).to.match(/^DPO: 36\.23, computed as/);
    expect(answer.text).to.include('“2020 2021 … Accounts payable 6,000 7,500” [1]');
    expect(answer.text).to.include('“2019 2020 2021 … Cost of revenue 50,000 54,000 66,000” [2]');
    expect(answer.text).to.match(/Sources: \[1\] acme-10k\.pdf, page 42; \[2\] acme-10k\.pdf, page 40$/);
    expect(answer.usedRefs).to.have.members(['1', '2']);
    expect(answer.markers).to.deep.equal({ 2: 1, 1: 2 }); // the balance sheet's page is [1], the income statement's [2]
  });

  it('computes textbook metrics, percentages and changes between years', () => {
    expect(ask('What is Acme’s FY2021 gross margin?')!.text).to.match(/^gross margin: 45\.00%/);
    expect(ask('What is the FY2021 return on assets (ROA) of Acme? Round to one decimal place.')!.text).to.match(/^return on assets: 8\.6%/);
    expect(ask('What is the year-over-year change in revenue from FY2020 to FY2021 (in percents)?')!.text).to.match(/: 33\.33%/);
    expect(ask('What is the FY2019 - FY2021 3 year average net profit margin (as a %)?')!.text).to.match(/: 3\.80%/);
    // (5% − 1.11% + 7.5%) / 3
  });

  it('states an amount in the unit asked for', () => {
    expect(ask('What is the change in net income from FY2020 to FY2021 in USD millions?')!.text).to.match(/: 10\.00 \(in millions\)/);
    expect(formatFigure({ percent: false, amount: true, unit: 'billions' }, 8738, 'millions')).to.equal('8.74 (in billions)');
    expect(formatFigure({ percent: true, amount: false, decimals: 1 }, 0.30812)).to.equal('30.8%');
    expect(formatFigure({ percent: false, amount: false }, 1.7342)).to.equal('1.73');
  });

  it('gives no computed answer when a line it needs is missing, so the usual answer stands', async () => {
    expect(ask('What is Acme’s FY2021 gross margin?', [BALANCE])).to.equal(undefined);
    expect(ask('What is the FY2021 current ratio?')).to.equal(undefined);
    const answerer = createExtractiveAnswerer({ plugins: ['financial-statements'] });
    const usual = await answerer.answer({ question: 'What is the FY2021 current ratio?', contexts: [INCOME, BALANCE], history: [] });
    expect(usual.text).not.to.match(/computed as/);
    const computed = await answerer.answer({ question: 'What is Acme’s FY2021 gross margin?', contexts: [INCOME, BALANCE], history: [] });
    expect(computed.text).to.match(/^gross margin: 45\.00%/);
    // The answerer without the plug-in computes nothing.
    const plain = await createExtractiveAnswerer({ plugins: [] }).answer({ question: 'What is Acme’s FY2021 gross margin?', contexts: [INCOME, BALANCE], history: [] });
    expect(plain.text).not.to.match(/computed as/);
  });
});
