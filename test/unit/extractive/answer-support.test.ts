import { expect } from 'chai';
import { asClosestFound, isFrameWord, MIN_SUBJECT_SUPPORT, minSubjectSupport, subjectSupport } from '../../../adapters/extractive/answer-support.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { isNotFoundAnswer, NOT_FOUND_ANSWER } from '../../../core/rag/prompt.js';

const passage = (text: string, ref = '1', filename = 'annual-report.pdf'): ContextPassage => ({ ref, filename, page: 4, text, score: 1 });
const PLANT = passage('(Dollars in Millions) 2019 2018\nLand $3.7 $0.8\nBuildings 120.4 118.2\nTotal Property, Plant and Equipment, Gross 475.6 434.7');
const INCOME = passage('(In thousands) 2019 2018\nNet sales 41,512 43,504\nCost of sales 30,118 31,077\nGross profit 11,394 12,427', '2');

describe('how much of a question’s subject an answer’s passage holds', () => {
  it('leaves out the words that frame a question: numbers, periods, operations, comparisons, requests', () => {
    for (const word of ['2019', '30,000', 'fy19', 'q3', 'fiscal', 'quarterly', 'change', 'percentage', 'average', 'higher', 'exceed', 'respective', 'table']) {
      expect(isFrameWord(word), word).to.equal(true);
    }
    for (const word of ['sales', 'goodwill', 'rent', 'warranty']) expect(isFrameWord(word), word).to.equal(false);
  });

  it('is whole when the passage holds the subject, whatever the years and operations asked', () => {
    expect(subjectSupport('What was the percentage change in net sales from 2018 to 2019?', INCOME, [INCOME, PLANT]).share).to.equal(1);
    expect(subjectSupport('What were the net sales in fiscal 2019?', INCOME, [INCOME, PLANT]).share).to.equal(1);
  });

  it('is none, naming the words missing, when the passage shares only the years', () => {
    const support = subjectSupport('What were the sales in 2019?', PLANT, [PLANT]);
    expect(support.share).to.equal(0);
    expect(support.missing).to.deep.equal(['sales']);
  });

  it('weighs a rare subject word over a common one', () => {
    const half = subjectSupport('What was the gross profit in 2018?', PLANT, [PLANT, INCOME]);
    expect(half.missing).to.deep.equal(['profit']);
    expect(half.share).to.be.greaterThan(0).and.lessThan(1);
  });

  it('counts a word of the passage’s file name and a near spelling as held', () => {
    const lease = passage('The deposit is returned within 30 days of the end of the tenancy.', '1', 'harbour-lease.pdf');
    expect(subjectSupport('When is the Harbour deposit returned?', lease, [lease]).share).to.equal(1);
    expect(subjectSupport('When is the depposit returned?', lease, [lease]).share).to.equal(1);
  });

  it('counts half the words a question puts side by side that the passage holds only apart', () => {
    const apart = passage('Net periodic cost rose in 2019. Interest income was flat.', '1');
    const beside = passage('Net income rose in 2019 on higher interest.', '2');
    const asked = 'What was the net income in 2019?';
    expect(subjectSupport(asked, beside, [apart, beside]).share).to.equal(1);
    expect(subjectSupport(asked, apart, [apart, beside]).share).to.equal(0.5);
    expect(subjectSupport(asked, apart, [apart, beside], { phrases: false }).share).to.equal(1);
    // Not asked as a figure: prose may put the words apart and still say it.
    expect(subjectSupport('Why did net income rise?', apart, [apart, beside]).share).to.equal(1);
  });

  it('asks more of prose among tables than of prose alone, and most of a row', () => {
    expect(minSubjectSupport(false, true)).to.equal(MIN_SUBJECT_SUPPORT.proseAmongTables);
    expect(minSubjectSupport(false, false)).to.equal(MIN_SUBJECT_SUPPORT.prose);
    expect(minSubjectSupport(true, true)).to.equal(MIN_SUBJECT_SUPPORT.table);
    expect(MIN_SUBJECT_SUPPORT.proseAmongTables).to.be.above(MIN_SUBJECT_SUPPORT.prose).and.below(MIN_SUBJECT_SUPPORT.table);
  });

  it('turns an answer into "not found" that shows its quotes as what came closest, sources kept', () => {
    const answer = { text: 'Total, 2018: $434.7 million\n\n“2019 2018 | Total 475.6 434.7” [1]\n\nAlso found: “Land $3.7” [2]\n\nSources: [1] a.pdf, page 4; [2] a.pdf, page 5', usedRefs: ['1', '2'], markers: { 1: 1, 2: 2 } };
    const closest = asClosestFound(answer, ['sales']);
    expect(closest.text).to.equal(`${NOT_FOUND_ANSWER} The closest passage does not mention sales.\n\nClosest found: “2019 2018 | Total 475.6 434.7” [1] “Land $3.7” [2]\n\nSources: [1] a.pdf, page 4; [2] a.pdf, page 5`);
    expect(closest.usedRefs).to.deep.equal(['1', '2']);
  });
});

describe('the extractive answerer’s honest "not found"', () => {
  const answerer = new ExtractiveAnswerer();

  it('answers a figure from a passage about it', async () => {
    const answer = await answerer.answer({ question: 'What was the gross profit in 2019?', contexts: [INCOME, PLANT], history: [] });
    expect(isNotFoundAnswer(answer.text), answer.text).to.equal(false);
    expect(answer.text).to.contain('11,394');
  });

  it(`says not found, showing what came closest, when the passage it would quote holds under ${MIN_SUBJECT_SUPPORT.table} of the subject`, async () => {
    const answer = await answerer.answer({ question: 'What was the cost of revenue for the warehouse leases in 2019?', contexts: [PLANT], history: [] });
    expect(answer.text.startsWith(NOT_FOUND_ANSWER), answer.text).to.equal(true);
    expect(answer.text).to.match(/\n\nClosest found: “/);
    expect(answer.usedRefs, 'the closest passage is still shown').to.deep.equal(['1']);
  });

  it(`asks a sentence among tables for ${MIN_SUBJECT_SUPPORT.proseAmongTables} of the subject, and one in prose alone for ${MIN_SUBJECT_SUPPORT.prose}`, async () => {
    // A TAT-QA dev question asked of another company's report: the note's sentence shares "interest" and little else.
    const note = passage('Consideration includes cash of £4.3 million and a retained interest in the joint venture. The venture opened two stores.', '3');
    const fees = passage('Customer accounts\n(In thousands) 2019 2018\nFees from deposits 12 10', '4');
    const question = 'What caused the interest on customer deposits to fall?';
    // Enough for prose alone, too little among tables.
    expect(subjectSupport(question, note, [note, fees]).share).to.be.within(MIN_SUBJECT_SUPPORT.prose, MIN_SUBJECT_SUPPORT.proseAmongTables - 0.01);
    const amongTables = await answerer.answer({ question, contexts: [note, fees], history: [] });
    expect(amongTables.text.startsWith(NOT_FOUND_ANSWER), amongTables.text).to.equal(true);
    expect(amongTables.text).to.match(/\n\nClosest found: “Consideration includes/);
  });
});
