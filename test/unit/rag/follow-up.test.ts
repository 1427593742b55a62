import { expect } from 'chai';
import type { HistoryTurn } from '../../../core/ports/llm.js';
import { followUpQuestion, referredDocuments } from '../../../core/rag/follow-up.js';

/** Each question asked after the ones before it (their answers in between), as followUpQuestion resolves it. */
function conversation(questions: string[]): string[] {
  const history: HistoryTurn[] = [];
  return questions.map((question) => {
    const resolved = followUpQuestion(question, history);
    history.push({ role: 'user', content: question }, { role: 'assistant', content: `An answer to: ${question}` });
    return resolved;
  });
}

describe('followUpQuestion (core/rag/follow-up.ts)', () => {
  it('asks a period relative to the one before as the year it means, counted from the question before', () => {
    expect(conversation([
      'What was the net income in 2019?', 'And the year before?', 'What about the previous year?', 'And the following year?', 'The year after?',
    ])).to.deep.equal([
      'What was the net income in 2019?',
      'What was the net income in 2018?',
      'What was the net income in 2017?',
      'What was the net income in 2018?',
      'What was the net income in 2019?',
    ]);
  });

  it('leaves a relative period alone in a question of its own, or one that names its year', () => {
    expect(conversation([
      'What was the net income in 2019?',
      'What were the additions for tax positions of a prior period in 2018?',
      'What were the additions for tax positions taken during the prior period?',
    ])).to.deep.equal([
      'What was the net income in 2019?',
      'What were the additions for tax positions of a prior period in 2018?',
      'What were the additions for tax positions taken during the prior period?',
    ]);
  });

  it('counts a relative period from the year the answer before states first when its question named none', () => {
    const history: HistoryTurn[] = [
      { role: 'user', content: 'How much were the visitors?' },
      { role: 'assistant', content: 'Visitors, 2021: 1,200 thousand\n\n“Visitors 1,200 1,100 900” [1] “2020 figures …” [2]' },
    ];
    expect(followUpQuestion('And the year before?', history)).to.equal('How much were the visitors in 2020?');
    // Nothing to count from: the question stands as it would without the rule.
    expect(followUpQuestion('And the year before?', [{ role: 'user', content: 'How much were the visitors?' }, { role: 'assistant', content: 'Visitors: 1,200' }]))
      .to.equal('the year before?');
  });

  it('asks an ellipsis as the question before it, with the years and names it gives instead', () => {
    expect(conversation([
      "What was Nike's revenue in fiscal 2019?", 'And in 2018?', 'What about Costco?', 'Costco?', 'In 2021?',
    ])).to.deep.equal([
      "What was Nike's revenue in fiscal 2019?",
      "What was Nike's revenue in fiscal 2018?",
      "What was Costco's revenue in fiscal 2018?",
      "What was Costco's revenue in fiscal 2018?",
      "What was Costco's revenue in fiscal 2021?",
    ]);
  });

  it('gives a question with a subject of its own but no name the names and years asked about before', () => {
    expect(conversation(["What was Costco's revenue in 2021?", 'What was its net income?', 'And the dividends they paid?'])).to.deep.equal([
      "What was Costco's revenue in 2021?",
      'What was its net income (Costco 2021)?',
      'the dividends they paid (Costco 2021)?',
    ]);
  });

  it('leaves alone a question that names its own subject or points back to nothing', () => {
    const before = "What was Nike's revenue in fiscal 2019?";
    for (const question of [
      'Who audits Costco?', 'What is the fee that applies to wire transfers?', 'How many stores are there in this region?',
      'Why?', 'When was the company founded?',
    ]) expect(conversation([before, question])[1], question).to.equal(question);
  });

  it('takes a short verbless fragment for a follow-up, and a longer one for a question of its own', () => {
    expect(conversation(["What was Nike's revenue in 2021?", 'Costco in 2020?'])[1]).to.equal("What was Costco's revenue in 2020?");
    const topicSwitch = 'The boiling point of mercury at sea level?';
    expect(conversation(["What was Costco's revenue in 2021?", topicSwitch])[1]).to.equal(topicSwitch);
  });

  it('changes nothing without an earlier question', () => {
    expect(followUpQuestion('And in 2018?', [])).to.equal('And in 2018?');
    expect(followUpQuestion('What was its net income?', [{ role: 'assistant', content: 'Hello.' }])).to.equal('What was its net income?');
  });
});

describe('referredDocuments (core/rag/follow-up.ts)', () => {
  const history: HistoryTurn[] = [
    { role: 'user', content: 'What does the Federal Register notice change?' },
    { role: 'assistant', content: 'It proposes to supersede an airworthiness directive. [1]', cited: ['notice'] },
    { role: 'user', content: 'What does the DMCA say about libraries?' },
    { role: 'assistant', content: 'I could not find this in your documents.' },
  ];

  it('gives a follow-up the documents of the latest answer that quoted any', () => {
    expect(referredDocuments('And when does it take effect?', history)).to.deep.equal(['notice']);
    expect(referredDocuments('What about 2021?', [...history, { role: 'assistant', content: 'A quote [1]', cited: ['dmca', 'notice'] }])).to.deep.equal(['dmca', 'notice']);
  });

  it('gives none to a question of its own, or when no answer quoted anything', () => {
    expect(referredDocuments('When does the Federal Register notice take effect?', history)).to.deep.equal([]);
    expect(referredDocuments('And when does it take effect?', history.filter((turn) => !turn.cited))).to.deep.equal([]);
    expect(referredDocuments('And when does it take effect?', [])).to.deep.equal([]);
    // A follow-up that names something of its own moves on.
    expect(referredDocuments('What about Krakow?', history)).to.deep.equal([]);
    expect(referredDocuments('And what does the DMCA say about it?', history)).to.deep.equal([]);
  });
});
