import { expect } from 'chai';
import { answerPlugins, ANSWER_PLUGIN_NAMES, createExtractiveAnswerer, DEFAULT_ANSWER_PLUGINS } from '../../../adapters/answer-plugins/index.js';
import { FINANCIAL_STATEMENTS, financialAnswerSkill, financialQueryPlanner } from '../../../adapters/financial-statements/index.js';
import { RECEIPTS, receiptsAnswerSkill, receiptsQueryPlanner } from '../../../adapters/receipts/index.js';
import { ConfigError, loadConfig } from '../../../server/config.js';

const STATEMENT = ['CONSOLIDATED STATEMENTS OF OPERATIONS', '2020 2021', 'Total net revenue 90,000 120,000', 'Cost of revenue 54,000 66,000'].join('\n');
const request = { question: 'What is the FY2021 gross margin?', contexts: [{ ref: '1', filename: 'a.pdf', page: 3, text: STATEMENT, score: 1 }], history: [] };

describe('answer plug-ins by name', () => {
  it('knows the receipt and financial-statement plug-ins, both on by default, as planners and skills', () => {
    expect(ANSWER_PLUGIN_NAMES).to.deep.equal([RECEIPTS, FINANCIAL_STATEMENTS]);
    expect(DEFAULT_ANSWER_PLUGINS).to.deep.equal([RECEIPTS, FINANCIAL_STATEMENTS]);
    expect(answerPlugins([RECEIPTS])).to.deep.equal([{ planner: receiptsQueryPlanner, skill: receiptsAnswerSkill }]);
    expect(answerPlugins([FINANCIAL_STATEMENTS])).to.deep.equal([{ planner: financialQueryPlanner, skill: financialAnswerSkill }]);
    expect(answerPlugins([])).to.deep.equal([]);
    expect(() => answerPlugins(['astrology'])).to.throw(/unknown answer plug-in 'astrology'/);
  });

  it('builds the extractive answerer from plain names: with the plug-in it computes figures, without it it does not', async () => {
    expect((await createExtractiveAnswerer().answer(request)).text).to.match(/^gross margin: 45\.00%/);
    expect((await createExtractiveAnswerer({ plugins: [] }).answer(request)).text).to.not.match(/computed as/);
  });

  it('ANSWER_PLUGINS picks them: default on, `none` for none, an unknown name refused', () => {
    expect(loadConfig({}).answerPlugins).to.deep.equal(['receipts', 'financial-statements']);
    expect(loadConfig({ ANSWER_PLUGINS: 'none' }).answerPlugins).to.deep.equal([]);
    expect(loadConfig({ ANSWER_PLUGINS: ' Financial-Statements , financial-statements' }).answerPlugins).to.deep.equal(['financial-statements']);
    expect(() => loadConfig({ ANSWER_PLUGINS: 'financial-statements,astrology' })).to.throw(ConfigError, /ANSWER_PLUGINS.*"astrology" is no plug-in/);
  });
});

describe('the financial-statement query planner', () => {
  it('words a question as filings do, and plans one pinned search per line a figure needs', () => {
    expect(financialQueryPlanner.lexicalQuery('What was FY18 COGS?')).to.include('cost of revenue').and.include(' 2018 ');
    expect(financialQueryPlanner.pinnedSearches('What is the FY2021 gross margin?').map((s) => s.text)).to.have.length(2);
    expect(financialQueryPlanner.pinnedSearches('Who founded the university?')).to.deep.equal([]);
  });

  it('names the table row of a figure question, with the year to lead with, and nothing for prose questions', () => {
    expect(financialAnswerSkill.tableFigure('What is the FY2018 capital expenditure amount?')).to.deep.equal({
      wording: 'purchases property plant equipment capital expenditures what is the 2018 capital expenditure amount?',
      year: 2018,
    });
    expect(financialAnswerSkill.tableFigure('Why does the company buy equipment?')).to.equal(undefined);
    expect(financialAnswerSkill.tableFigure('Is the company profitable in 2018?')).to.equal(undefined);
  });
});
