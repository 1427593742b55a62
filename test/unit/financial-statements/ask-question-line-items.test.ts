import { expect } from 'chai';
import type { Answer, AnswerRequest, Llm } from '../../../core/ports/llm.js';
import { createExtractiveAnswerer } from '../../../adapters/answer-plugins/index.js';
import { financialQueryPlanner } from '../../../adapters/financial-statements/plugin.js';
import { coreFixture } from '../../support/core-fixture.js';

/** Notes that talk about the line items at length (a lexical index ranks them high), then the two statements. */
const NOTE = 'Accounts payable, inventories and cost of sales in 2019, 2020 and 2021 are discussed in this note to the consolidated balance sheets and statements of operations. Days payable outstanding (DPO) is defined on the average of accounts payable and the change in inventory; COGS and total net revenue are managed with suppliers, round by round.';
const BALANCE = ['CONSOLIDATED BALANCE SHEETS', '2020 2021', 'Inventories 10,000 12,000', 'Accounts payable 6,000 7,500'].join('\n');
const INCOME = ['CONSOLIDATED STATEMENTS OF OPERATIONS', '2019 2020 2021', 'Total net revenue 80,000 90,000 120,000', 'Cost of sales 50,000 54,000 66,000'].join('\n');
const DOCUMENT = [...Array.from({ length: 8 }, (_, i) => `${NOTE} See part ${i + 1}.`), BALANCE, INCOME].join('\f');
const QUESTION = 'What is Acme’s FY2021 DPO? DPO is defined as: 365 * (average accounts payable between FY2020 and FY2021) / (FY2021 COGS + change in inventory between FY2020 and FY2021). Round your answer to two decimal places.';

class RecordingLlm implements Llm {
  requests: AnswerRequest[] = [];
  async answer(request: AnswerRequest): Promise<Answer> {
    this.requests.push(request);
    return createExtractiveAnswerer({ plugins: ['financial-statements'] }).answer(request);
  }
}

describe('AskQuestion with the financial-statement plug-in, for a computed figure', () => {
  it('puts the statement rows of every line item the formula needs among the passages, and the answer computes it', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm, planners: [financialQueryPlanner] });
    const { session } = await f.sessionWithUpload('u1', DOCUMENT, 'acme-10k.pdf');
    await f.drain();
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: QUESTION });
    expect(llm.requests[0].contexts.slice(0, 2).map((c) => c.page).sort((a, b) => a - b)).to.deep.equal([9, 10]);
    // 365 × 6,750 / (66,000 + 2,000)
    expect(result.answer).to.match(/^DPO: 36\.23, computed as/);
    expect(result.sources.map((s) => s.page)).to.include.members([9, 10]);
  });

  it('without the plug-in, the ask flow pins no statement row (the core knows no statements)', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm });
    const { session } = await f.sessionWithUpload('u1', DOCUMENT, 'acme-10k.pdf');
    await f.drain();
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: QUESTION });
    expect(llm.requests[0].contexts.slice(0, 2).map((c) => c.page)).to.not.have.members([9, 10]);
    expect(result.answer).to.not.match(/^DPO: 36\.23/);
  });

  it('leaves retrieval as it was for a question that computes nothing', async () => {
    const llm = new RecordingLlm();
    const f = coreFixture({ llm, planners: [financialQueryPlanner] });
    const { session } = await f.sessionWithUpload('u1', DOCUMENT, 'acme-10k.pdf');
    await f.drain();
    await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'How is days payable outstanding managed with suppliers?' });
    expect(llm.requests[0].contexts.map((c) => c.page)).to.not.include.members([9, 10]);
  });
});
