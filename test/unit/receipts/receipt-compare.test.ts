import { expect } from 'chai';
import { amountValue, asksExtremeTotal } from '../../../adapters/receipts/receipt-compare.js';
import { receiptsAnswerSkill, receiptsQueryPlanner } from '../../../adapters/receipts/index.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passage = (text: string, ref: string, filename: string): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });
const receipt = (items: string[], total: string) => [...items, total, 'BAR 200,00'].join('\n');
const contexts = [
  passage(receipt(['MILCH 1,19 A', 'BROT 2,49 A'], 'ZU ZAHLEN EUR 24,23'), '1', 'receipt_aldi.jpg'),
  passage(receipt(['PARKETT 9,70 1', 'SELIT 49,80 1'], 'SUMME [3] EUR 1.152,00'), '2', 'receipt_hornbach.jpg'),
  passage(receipt(['EMMENTALER 5,18 A', 'BULGUR 1,98 A'], 'zu zahlen 7,16'), '3', 'receipt_lidl.jpg'),
];
const answer = (question: string, passages = contexts) => receiptsAnswerSkill.answer({ question, contexts: passages, history: [] })?.text;

describe('comparing receipts’ totals', () => {
  it('tells questions for the highest or lowest total from others', () => {
    expect(asksExtremeTotal('Which receipt has the highest total?')).to.equal('highest');
    expect(asksExtremeTotal('Where did I spend the most?')).to.equal('highest');
    expect(asksExtremeTotal('What was my cheapest shopping?')).to.equal('lowest');
    expect(asksExtremeTotal('Which is the highest mountain?')).to.equal(undefined);
    expect(asksExtremeTotal('How much did I pay at Aldi?')).to.equal(undefined);
  });

  it('reads amounts with either decimal separator and thousands', () => {
    expect([amountValue('24,23'), amountValue('12.50'), amountValue('1.152,00'), amountValue('1,152.00'), amountValue('€1,95')]).to.deep.equal([24.23, 12.5, 1152, 1152, 1.95]);
  });

  it('answers with the total line of the receipt whose total is the highest or lowest of those read, saying of how many', () => {
    expect(answer('Which receipt has the highest total?')).to.equal(
      '1.152,00 — “SUMME [3] EUR 1.152,00” [1]\n(The highest of the 3 receipts\' totals I could read.)\n\nSources: [1] receipt_hornbach.jpg, page 1');
    expect(answer('Where did I spend the least?')).to.match(/^7,16 — “zu zahlen 7,16” \[1\]\n\(The lowest of the 3 /);
    expect(answer('Which receipt has the highest total?', contexts.slice(0, 1)), 'one receipt: its total, nothing compared').to.match(/^24,23 — /);
  });

  it('plans a search for each receipt’s total line', () => {
    const searches = receiptsQueryPlanner.pinnedSearches('Which receipt has the highest total?');
    expect(searches.some((search) => search.perDocument !== undefined)).to.equal(true);
  });
});
