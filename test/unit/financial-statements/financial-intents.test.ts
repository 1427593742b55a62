import { expect } from 'chai';
import { intentKinds, intentsAsked } from '../../../core/index.js';
import { FINANCIAL_INTENTS } from '../../../adapters/financial-statements/financial-intents.js';
import { FINANCIAL_KINDS, financialAnswerSkill, financialQueryPlanner } from '../../../adapters/financial-statements/plugin.js';

describe('the financial-statement plug-in’s intents, as one table', () => {
  it('declares each intent’s language, kinds, retrieval plan and answer, and the plug-in serves the kinds they are asked of', () => {
    for (const row of FINANCIAL_INTENTS) {
      expect(row.language).to.equal('en');
      expect(row.kinds).to.deep.equal(['financial-report']);
      expect(row.plan === 'row' || typeof row.plan.reword === 'string').to.equal(true);
    }
    expect(intentKinds(FINANCIAL_INTENTS)).to.deep.equal(['financial-report']);
    expect([financialQueryPlanner.kinds, financialAnswerSkill.kinds]).to.deep.equal([FINANCIAL_KINDS, FINANCIAL_KINDS]);
  });

  it('finds the rows a question holds: statement, line items and officers reworded in order, a figure asked unless yes/no', () => {
    const asked = (q: string) => intentsAsked(q, FINANCIAL_INTENTS).map((row) => (typeof row.plan === 'object' ? `${row.intent}: ${row.plan.reword}` : row.intent));
    expect(asked('What was the capex in the cash flow statement?')).to.deep.equal([
      'statement: consolidated statements of cash flows', 'line-item: purchases property plant equipment capital expenditures',
    ]);
    expect(asked('How much did the CEO earn?')).to.deep.equal(['officer: chief executive officer', 'figure']);
    expect(asked('Is the total debt rising?')).to.deep.equal(['line-item: long-term debt borrowings notes']);
  });
});
