import { expect } from 'chai';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import { asksForExplanation, proseFirst } from '../../../adapters/extractive/explanation.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { financialAnswerSkill } from '../../../adapters/financial-statements/plugin.js';

describe('explanation questions', () => {
  it('are those asking why, how a figure is made, what drove it or what a term stands for', () => {
    for (const question of [
      'Why did net cash provided by operating activities decrease in 2019?',
      'How is EBITDA calculated?',
      'How was the fair value of the options determined?',
      'What was the reason for the increase in revenue?',
      'What does working capital consist of?',
      'What does Adjusted gross margin represent?',
      'What was the increase in free cash flow driven by?',
      'What is excluded from the operating interest expense?',
    ]) expect(asksForExplanation(question), question).to.equal(true);
    for (const question of [
      'What was the net income in 2019?',
      'How much did revenue increase from 2018 to 2019?',
      'What is the percentage change in revenue?',
      'How many employees does the company have?',
      'Who is the chief executive?',
    ]) expect(asksForExplanation(question), question).to.equal(false);
  });

  it('put the best sentence first when it holds every question term the best row holds', () => {
    const unit = (kind: 'row' | 'sentence', text: string) => ({ kind, text });
    const terms = (u: { text: string }) => new Set(u.text.toLowerCase().split(/\W+/).filter((w) => ['adjusted', 'ebita', 'increase'].includes(w)));
    const row = unit('row', 'Adjusted EBITA 482 483 0 %');
    const offTopic = unit('sentence', 'Order intake did increase in all businesses.');
    const onTopic = unit('sentence', 'Adjusted EBITA rose as productivity improved.');
    expect(proseFirst([row, offTopic, onTopic], terms)).to.deep.equal([onTopic, row, offTopic]);
    // No sentence speaks of what the row names: the ranking stands.
    expect(proseFirst([row, offTopic], terms)).to.deep.equal([row, offTopic]);
  });

  it('are answered by the sentence that explains, the row it explains after it', async () => {
    // As a real report prints it (TAT-QA dev): the prose above its table, whose rows hold the question's words too.
    const text = [
      'Deferred income taxes on the Consolidated Balance Sheets result from temporary differences between the amount of assets and liabilities recognized for financial reporting and tax purposes. The principal components of our current and non-current deferred taxes were as follows:',
      '(In thousands) 2019 2018',
      'Deferred tax assets',
      'Inventory $7,144 $6,609',
      'Accrued expenses 2,330 2,850',
      'Pensions 7,074 5,538',
      'Valuation allowance (48,616) (5,816)',
      'Total Deferred Tax Assets 20,101 47,233',
      'Deferred tax liabilities',
      'Property, plant and equipment (2,815) (3,515)',
      'Total Deferred Tax Liabilities (12,540) (10,046)',
      'Net Deferred Tax Assets $7,561 $37,187',
    ].join('\n');
    const contexts: ContextPassage[] = [{ ref: '1', filename: 'report.pdf', page: 3, text, score: 1 }];
    // The financial plug-in names a row for "deferred income taxes": a figure question's answer, not a why's.
    const answer = await new ExtractiveAnswerer(undefined, [financialAnswerSkill]).answer({ question: "Why do deferred income taxes appear on the company's Consolidated Balance Sheets?", contexts, history: [] });
    expect(answer.text).to.match(/^“Deferred income taxes on the Consolidated Balance Sheets result from temporary differences/);
  });
});
