import { expect } from 'chai';
import { intentKinds, intentsAsked } from '../../../core/index.js';
import { RECEIPT_INTENTS } from '../../../adapters/receipts/receipt-intents.js';
import { RECEIPT_KINDS, receiptsAnswerSkill, receiptsQueryPlanner } from '../../../adapters/receipts/plugin.js';

describe('the receipts plug-in’s intents, as one table', () => {
  it('declares each intent’s language, kinds, retrieval plan and answer, and the plug-in serves the kinds they are asked of', () => {
    for (const row of RECEIPT_INTENTS) {
      expect(row.language).to.be.oneOf(['en', 'de']);
      expect(row.kinds).to.deep.equal(['receipt']);
      expect(row.plan).to.be.a('string');
      expect(row.answer).to.be.a('string');
    }
    expect(intentKinds(RECEIPT_INTENTS)).to.deep.equal(['receipt']);
    expect(receiptsQueryPlanner.kinds).to.equal(RECEIPT_KINDS);
    expect(receiptsAnswerSkill.kinds).to.equal(RECEIPT_KINDS);
  });

  it('finds the rows a question holds, in the table’s order, with their requirements and exceptions', () => {
    const asked = (q: string) => intentsAsked(q, RECEIPT_INTENTS).map((row) => `${row.intent}/${row.language}/${row.plan}`);
    expect(asked('When did I pay the VAT?')[0]).to.equal('vat/en/detail-lines');
    expect(asked('Wann habe ich bei Lidl eingekauft?')).to.deep.equal(['date/de/detail-lines']);
    expect(asked('When did the act pass?')).to.deep.equal([]);
    expect(asked('How much did I pay at Aldi?')).to.deep.equal(['paid/en/total-line']);
    expect(asked('How much VAT is on the receipt?')).to.deep.equal(['vat/en/detail-lines']);
    expect(asked('What did I buy at Lidl?')).to.deep.equal(['bought/en/whole-receipt']);
    expect(asked('Which receipt has the highest total?')).to.deep.equal(['paid/en/total-line', 'highest/en/each-total-line']);
    expect(asked('Which is the highest mountain?')).to.deep.equal([]);
  });
});
