import { expect } from 'chai';
import {
  ExtractiveAnswerer, MAX_ANSWER_WORDS, SENTENCE_FEATURES, SENTENCE_WEIGHTS, sentenceFeatures, type Candidate,
} from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { NOT_FOUND_ANSWER } from '../../../core/rag/prompt.js';
import type { AnswerSkill } from '../../../core/ports/answer-skill.js';
import { financialAnswerSkill } from '../../../adapters/financial-statements/plugin.js';
import { sourceLine } from '../../support/answer-source-line.js';
import { columnHeaderOf, figureForNamedColumn, figureForTotal, figureForYear } from '../../../adapters/extractive/table-rows.js';
import { splitUnits } from '../../../core/rag/layout.js';

const passage = (ref: string, text: string, filename = 'doc.pdf', page = 1, score = 1): ContextPassage => ({ ref, filename, page, text, score });

/** The quoted part of an answer: its “…” quotes, without the markers and the Sources line. */
function quotes(answer: string): string[] {
  return [...answer.split('\n\nSources:')[0].matchAll(/“([^”]*)”/g)].map((m) => m[1]);
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('ExtractiveAnswerer', () => {
  const answerer = new ExtractiveAnswerer();

  it('hears a time in "May" the month, not in "may" the verb', () => {
    const candidate = (text: string, rank: number): Candidate => ({
      passage: passage(String(rank + 1), text), rank, position: 0, kind: 'sentence', text, words: words(text), score: 0, coverage: 0, features: [],
    });
    const at = SENTENCE_FEATURES.indexOf('answerType');
    const [verb, month] = sentenceFeatures([candidate('The agency may amend the rule because of those comments.', 0), candidate('Comments on the rule are due in May.', 1)], 'When are comments due?', new Map());
    expect([verb[at], month[at]]).to.deep.equal([0, 1]);
  });

  it('quotes at most 80 words in all, even from very long sentences and many passages', async () => {
    const long = (topic: string, n: number) =>
      `The ${topic} committee ${Array.from({ length: n }, (_, i) => `reviewed item ${i} of the ${topic} budget`).join(' and ')}.`;
    const contexts = Array.from({ length: 6 }, (_, i) => passage(String(i + 1), `${long('harbour', 40)} ${long('harbour budget', 30)}`, `f${i}.pdf`, i + 1));
    const answer = await answerer.answer({ question: 'What did the harbour committee review in the budget?', contexts, history: [] });
    const quoted = quotes(answer.text);
    expect(quoted.length).to.be.within(1, 4);
    expect(words(quoted.join(' ').replace(/…/g, ' '))).to.be.at.most(MAX_ANSWER_WORDS);
  });

  it('quotes sentences verbatim and names the file and page of each', async () => {
    const contexts = [
      passage('1', 'The lighthouse was built in 1854 by the harbour board. It stands on the northern cape.', 'coast.pdf', 3, 2),
      passage('2', 'Tourists visit the cape in summer. The museum opens at nine.', 'guide.pdf', 7, 1),
    ];
    const answer = await answerer.answer({ question: 'When was the lighthouse built?', contexts, history: [] });
    const [first] = quotes(answer.text);
    expect(first).to.include('The lighthouse was built in 1854 by the harbour board.');
    expect(answer.text).to.match(/Sources: \[1\] coast\.pdf, page 3/);
    expect(answer.usedRefs[0]).to.equal('1');
    for (const q of quotes(answer.text)) expect(contexts.some((c) => c.text.includes(q))).to.equal(true);
  });

  it('says by which number its text cites each passage it quotes, and cites no passage it left out', async () => {
    const contexts = [
      passage('1', 'In 2019 the harbour budget paid for a new crane on the east quay. The crane lifts forty tonnes.', 'port.pdf', 4, 3),
      passage('2', 'The harbour budget also paid for dredging the channel in 2020. Ships of deeper draught now berth there.', 'port.pdf', 9, 2),
      passage('3', 'Lighting on the pier was paid for by the harbour budget in 2021. The town paid for the benches.', 'town.pdf', 2, 1),
      passage('4', 'The harbour budget paid for painting the crane in 2022.', 'port.pdf', 4, 0.5),
    ];
    const answer = await answerer.answer({ question: 'What did the harbour budget pay for?', contexts, history: [] });
    const named = sourceLine(answer.text);
    expect(named.size, 'quotes from several pages').to.be.greaterThan(1);
    expect(Object.keys(answer.markers!).sort()).to.deep.equal([...answer.usedRefs].sort());
    for (const [ref, n] of Object.entries(answer.markers!)) {
      const { filename, page } = contexts.find((c) => c.ref === ref)!;
      expect(named.get(n), `ref ${ref}`).to.equal(`${filename}, page ${page}`);
      expect(answer.text).to.include(`” [${n}]`);
    }
    expect(new Set(Object.values(answer.markers!)).size).to.equal(named.size);
    // What it quotes of each passage: words of that passage, as the text quotes them.
    expect(Object.keys(answer.quotes!).sort()).to.deep.equal([...answer.usedRefs].sort());
    for (const [ref, quoted] of Object.entries(answer.quotes!)) {
      expect(contexts.find((c) => c.ref === ref)!.text, `ref ${ref}`).to.include(quoted);
      expect(answer.text).to.include(quoted);
    }
  });

  it('puts first the sentence holding the kind of answer asked for', async () => {
    const contexts = [passage('1', [
      'The treaty of the northern harbour was discussed by many historians.',
      'The treaty of the northern harbour was signed in 1721 after long talks.',
    ].join(' '))];
    const answer = await answerer.answer({ question: 'When was the treaty of the northern harbour signed?', contexts, history: [] });
    expect(quotes(answer.text)[0]).to.include('1721');
  });

  it('does not take the day of a date for the count a "how many" question asks for', async () => {
    const contexts = [
      passage('1', 'The company and its employees were named in a class action filed on March 23, 2021 in the district court. The plaintiffs seek damages on behalf of the employees.', 'report.pdf', 62),
      passage('2', 'Our workforce is central to our success. At the end of the year the company had 288,000 employees across its warehouses.', 'report.pdf', 5),
    ];
    const answer = await answerer.answer({ question: 'How many employees does the company have?', contexts, history: [] });
    expect(quotes(answer.text)[0]).to.include('288,000');
  });

  it('prefers the passage that is about the question over a stray match elsewhere', async () => {
    const contexts = [
      passage('1', 'Victoria was first settled in 1803 at Sullivan Bay. The colony grew quickly after the gold rush.', 'victoria.pdf', 2, 3),
      passage('2', 'Denver had to settle for a field goal on the first drive.', 'superbowl.pdf', 5, 1),
    ];
    const ranked = answerer.rankSentences({ question: 'When was Victoria first settled?', contexts, history: [] });
    expect(ranked[0].text).to.include('1803');
  });

  it('answers a figure question with the table row naming it, under its column header, the asked year first', async () => {
    const statement = [
      'Consolidated Statement of Cash Flows',
      '(Millions) 2018 2017 2016',
      'Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)',
      'Proceeds from sale of PP&E and other assets 262 49 58',
    ].join('\n');
    const contexts = [
      passage('1', 'Capital spending is discussed in the liquidity section of this report.', 'annual.pdf', 30, 2),
      passage('2', statement, 'annual.pdf', 60, 1),
    ];
    const request = { question: 'What is the FY2018 capital expenditure amount (in USD millions)?', contexts, history: [] };
    const answer = await new ExtractiveAnswerer(undefined, [financialAnswerSkill]).answer(request);
    expect(answer.text.startsWith('2018: (1,577)\n\n“')).to.equal(true);
    expect(quotes(answer.text)[0]).to.equal('(Millions) 2018 2017 2016 … Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)');
    expect(answer.text).to.match(/\[1\] annual\.pdf, page 60/);
    // Without a skill naming the row, the answerer knows no statement wording and leads with no figure.
    expect((await answerer.answer(request)).text).to.not.match(/^2018: /);
  });

  it('answers a line item several tables print with each table’s figure, named, unless the question names one', async () => {
    // shared/data/financebench/pdfs/NETFLIX_2017_10K.pdf as chunked: one segment table per page, the same row in each.
    const segment = (name: string, row: string) => [
      name, 'As of/ Year Ended December 31, Change', '2017 2016 2015 2017 vs. 2016 2016 vs. 2015',
      '(in thousands, except revenue per membership and percentages) Memberships:', `Paid memberships at end of period ${row}`,
    ].join('\n');
    const contexts = [
      passage('1', segment('Domestic DVD Segment', '3,330 4,029 4,787 (699) (17)% (758) (16)%'), '10k.pdf', 24, 3),
      passage('2', segment('Domestic Streaming Segment', '52,810 47,905 43,401 4,905 10% 4,504 10 %'), '10k.pdf', 22, 2),
      passage('3', segment('International Streaming Segment', '57,834 41,185 27,438 16,649 40% 13,747 50%'), '10k.pdf', 23, 1),
    ];
    const skilled = new ExtractiveAnswerer(undefined, [financialAnswerSkill]);
    const all = await skilled.answer({ question: 'How many paid memberships were there at the end of 2017?', contexts, history: [] });
    expect(all.text.startsWith('2017: 52,810 (Domestic Streaming Segment), 57,834 (International Streaming Segment), 3,330 (Domestic DVD Segment)\n\n“'), all.text).to.equal(true);
    // Each table's row quoted under its name, cited to its page.
    expect(all.text).to.include('“International Streaming Segment … Paid memberships at end of period 57,834 41,185 27,438 16,649 40% 13,747 50%” [2]');
    expect(all.text).to.include('Domestic DVD Segment … Paid memberships at end of period 3,330 4,029 4,787 (699) (17)% (758) (16)%” [3]');
    expect(all.text).to.include('Sources: [1] 10k.pdf, page 22; [2] 10k.pdf, page 23; [3] 10k.pdf, page 24');
    const one = await skilled.answer({ question: 'How many international paid memberships were there at the end of 2016?', contexts, history: [] });
    expect(one.text.startsWith('2016: 41,185\n\n“'), one.text).to.equal(true);
    expect(one.text).to.not.include('3,330');
  });

  it("answers a figure of a table with a header of names under that header, its total first", async () => {
    // shared/data/pdfs/nics-background-checks-2015-11.pdf as chunked: the header of names carried atop each chunk.
    const header = 'State / Territory Permit Handgun Long Gun *Other **Multiple Admin Handgun Long Gun *Other Handgun Long Gun *Other Handgun Long Gun *Other Handgun Long Gun Handgun Long Gun *Other Handgun Long Gun *Other Totals';
    const table = [header,
      'Tennessee 9,509 28,815 24,023 0 1,300 0 0 0 0 0 0 0 17 1 5 0 0 0 0 0 0 63,670',
      'Texas 21,550 56,941 51,670 2,532 3,048 0 29 20 0 5,748 5,331 21 1 2 1 42 36 4 1 5 0 146,982'].join('\n');
    const contexts = [
      passage('1', 'These statistics represent the number of firearm background checks initiated through the NICS. They do not represent the number of firearms sold.', 'nics.pdf', 1, 2),
      passage('2', table, 'nics.pdf', 1, 1),
    ];
    const answer = await new ExtractiveAnswerer(undefined, [financialAnswerSkill]).answer({ question: 'How many background checks were there in Texas?', contexts, history: [] });
    expect(answer.text.startsWith('Totals: 146,982\n\n“')).to.equal(true);
    // The row leads its page's quote, before the page's prose: the 80 words never cut its total off.
    expect(quotes(answer.text)[0]).to.match(/^State \/ Territory .* Totals … Texas .* 146,982/);
    expect(quotes(answer.text).join(' ')).to.include(`${header} … Texas 21,550 56,941 51,670 2,532 3,048 0 29 20 0 5,748 5,331 21 1 2 1 42 36 4 1 5 0 146,982`);
    // The prose introducing a table is no header; a header whose last column is no total leads with no figure.
    const units = (text: string) => {
      const of = passage('5', text);
      return splitUnits(text).map((unit, position) => ({ ...unit, position, rank: 0, passage: of }));
    };
    const named = units('State Permit Handgun Totals\nTennessee 9,509 28,815 63,670\nTexas 21,550 56,941 146,982');
    expect(columnHeaderOf(named[2], named)).to.equal('State Permit Handgun Totals');
    const sentence = units('The table below lists checks by state.\nTexas 21,550 56,941 146,982');
    expect(columnHeaderOf(sentence[1], sentence)).to.equal(undefined);
    expect(figureForTotal('Texas 21,550 56,941 51,670', 'State Permit Handgun Rifle')).to.equal(undefined);
    expect(figureForTotal('Texas 21,550 56,941 51,670', 'State Permit Handgun Total')).to.equal('Total: 51,670');
    // The one column of a header read by columns that the question names by all its words.
    const aging = 'Current | 0 to 30 days past due | More than 60 days past due | Total';
    expect(figureForNamedColumn('Gross carrying amount 23,762 2,068 1,703 28,320', aging, 'What is the gross carrying amount for current receivables?')).to.equal('Current: 23,762');
    expect(figureForNamedColumn('Gross carrying amount 23,762 2,068 1,703 28,320', aging, 'What is the gross carrying amount?')).to.equal(undefined);
    // Each year a question names, in its order, when the row has them all; else the one year.
    expect(figureForYear('Capital expenditures 475.6 434.7', '2021 2020', 2021, [2020, 2021])).to.equal('2020: 434.7; 2021: 475.6');
    expect(figureForYear('Capital expenditures 475.6 434.7', '2021 2020', 2021, [2021, 2019])).to.equal('2021: 475.6');
  });

  it('quotes the row whose table heading names what the question names, not the same label under another heading', async () => {
    // A 10-K's lines, as the text layer gives them: each region's table ends in "TOTAL REVENUES" (its header broken
    // over two lines), the company's own statement says "Revenues" under a title of three lines.
    const region = (name: string, total: string) => passage(name, [
      'Revenues grew in every region this year, as the tables below show.',
      name,
      '(Dollars in millions) FISCAL 2019 FISCAL 2018 % CHANGE % CHANGE EXCLUDING CURRENCY',
      'CHANGES',
      'Sales through Acme Direct 2,736 2,477 10% 15%',
      `TOTAL REVENUES $ ${total} $ 9,242 6% 11%`,
    ].join('\n'), 'ACME_2019_10K.pdf', 34);
    const statement = passage('3', [
      'ACME, INC.',
      'CONSOLIDATED STATEMENTS OF INCOME',
      'YEAR ENDED MAY 31,',
      '(In millions) 2019 2018 2017',
      'Revenues $ 39,117 $ 36,397 $ 34,350',
      'Cost of sales 21,643 20,441 19,038',
    ].join('\n'), 'ACME_2019_10K.pdf', 52);
    const contexts = [statement, region('EUROPE, MIDDLE EAST & AFRICA', '9,812'), region('GREATER CHINA', '6,208')];
    const answerer = new ExtractiveAnswerer(undefined, [financialAnswerSkill]);
    const ask = async (question: string) => (await answerer.answer({ question, contexts, history: [] })).text;
    const company = await ask("What was Acme's revenue in fiscal 2019?");
    expect(company.startsWith('2019: 39,117\n\n“'), company).to.equal(true);
    expect(quotes(company)[0]).to.include('(In millions) 2019 2018 2017 … Revenues $ 39,117 $ 36,397 $ 34,350');
    expect(quotes(await ask("What was Acme's revenue in Greater China in fiscal 2019?"))[0]).to.include('TOTAL REVENUES $ 6,208 $ 9,242 6% 11%');
  });

  it('asks its skills in order: the first whole answer wins, and a skill names the table row to quote', async () => {
    const contexts = [passage('1', '(Units) 2019 2020\nWidgets shipped 1,200 1,450\nThe plant ships widgets to Asia.')];
    const calls: string[] = [];
    const skill = (name: string, answer?: string): AnswerSkill => ({
      name,
      answer: () => (calls.push(name), answer === undefined ? undefined : { text: answer, usedRefs: ['1'] }),
      tableFigure: () => ({ wording: 'widgets shipped', year: 2020 }),
    });
    expect(await new ExtractiveAnswerer(undefined, [skill('a'), skill('b', 'from b'), skill('c', 'from c')]).answer({ question: 'q?', contexts, history: [] }))
      .to.deep.equal({ text: 'from b', usedRefs: ['1'], skills: ['b'] });
    expect(calls).to.deep.equal(['a', 'b']);
    const quoted = await new ExtractiveAnswerer(undefined, [skill('a')]).answer({ question: 'How many widgets were shipped in 2020?', contexts, history: [] });
    expect(quoted.text.startsWith('2020: 1,450\n\n“')).to.equal(true);
    expect(quoted.skills).to.deep.equal(['a']);
  });

  it('asks a skill only when the documents asked of hold a kind it serves (or their kinds are not known)', async () => {
    const contexts = [passage('1', 'The plant ships widgets to Asia.')];
    const asked: string[] = [];
    const skill: AnswerSkill = { name: 'tills', kinds: ['receipt'], answer: () => (asked.push('tills'), { text: 'from tills', usedRefs: ['1'] }), tableFigure: () => undefined };
    const answerer = new ExtractiveAnswerer(undefined, [skill]);
    const other = await answerer.answer({ question: 'Where does the plant ship widgets?', contexts, history: [], kinds: ['letter', 'other'] });
    expect(asked).to.deep.equal([]);
    expect(other.text).to.not.equal('from tills');
    expect(other).to.not.have.property('skills');
    expect((await answerer.answer({ question: 'q?', contexts, history: [], kinds: ['other', 'receipt'] })).skills).to.deep.equal(['tills']);
    expect((await answerer.answer({ question: 'q?', contexts, history: [] })).skills).to.deep.equal(['tills']);
  });

  it('reads a leading "Total" as the sum of the item it names, not as a word of another item', async () => {
    // shared/data/financebench/pdfs/MICROSOFT_2016_10K.pdf, page 52, as chunked: "Total" heads one row of the
    // passages, so it weighed as much as "cost" and "revenue", and "Sales and marketing" matched COGS's wording as well.
    const contexts = [
      passage('1', 'INCOME STATEMENTS\n(In millions)\nYear Ended June 30, 2016 2015 2014\nProduct 17,880 21,410 16,681\nService and other 14,900 11,628 10,397\n' +
        'Total cost of revenue 32,780 33,038 27,078\nGross margin 52,540 60,542 59,755\nSales and marketing 14,697 15,713 15,811', 'annual.pdf', 52, 1),
      passage('2', ['Cost of revenue grew with cloud revenue and marketing.', 'Marketing cost less per unit of revenue.', 'Revenue and cost rose in every marketing region.',
        'Our marketing lowered the cost of revenue.', 'Revenue from marketing partners offset the cost.'].join(' '), 'annual.pdf', 20, 2),
    ];
    const answer = await new ExtractiveAnswerer(undefined, [financialAnswerSkill]).answer({ question: 'What is the FY2016 COGS in USD millions?', contexts, history: [] });
    expect(answer.text.startsWith('2016: 32,780\n\n“'), answer.text).to.equal(true);
  });

  it('does not quote a row for a figure the table does not hold', async () => {
    const contexts = [passage('1', '(Millions) 2018 2017\nProceeds from sale of PP&E and other assets 262 49\nTotal assets $ 59,268 $ 55,556')];
    const answer = await new ExtractiveAnswerer(undefined, [financialAnswerSkill]).answer({ question: 'How much did the harbour committee spend on boats?', contexts, history: [] });
    expect(answer.text).to.equal(NOT_FOUND_ANSWER);
  });

  it('does not take a row the question names by its qualifier alone for the figure asked', async () => {
    // TAT-QA dev pages asked of an unrelated report: "net cash … financing" answered with the row "Net income", and
    // "Total operating income" with a table's bare "Total" row.
    const contexts = [passage('1', 'Year Ended April 26, 2019 April 27, 2018\nNet income $ 1,169 $ 116\nShares used in basic computation 254 268\n' +
      'Warrants by issuance date 2019 2018\nAug 2019 842,000 —\nTotal 4,474,868 3,632,868', 'annual.pdf', 1, 1)];
    const answerer = new ExtractiveAnswerer(undefined, [financialAnswerSkill]);
    const ask = async (question: string) => (await answerer.answer({ question, contexts, history: [] })).text;
    expect((await ask('How much net cash was used for financing activities in 2018?')).split('\n')[0]).to.not.include('116');
    expect(await ask('What was the change in Total operating income in 2019 from 2018?')).to.not.include('4,474,868');
    // Named by more than its qualifier, the same rows answer; a bare "Total" when its table's title names the subject.
    expect(await ask('What was the net income in 2018?')).to.match(/^(Net income, )?2018: \$?116\n/);
    expect(await ask('How many warrants were there in total in 2019?')).to.include('4,474,868');
    // "Other income" is the income that is not the one asked (issue 49: Coca-Cola's "net income" answered from it).
    const other = [passage('1', 'Year Ended December 31, 2019 2018\nOther income and expenses, net $103 $53\nShares used 254 268', 'annual.pdf', 1, 1)];
    const netIncome = (await answerer.answer({ question: 'What was the net income in 2019?', contexts: other, history: [] })).text;
    expect(netIncome, 'not led by the figure as the answer').to.not.match(/^[^“\n]*103/);
    expect((await answerer.answer({ question: 'What was the other income in 2019?', contexts: other, history: [] })).text.split('\n')[0]).to.include('103');
    // A row named by the question's own words must hold its subject: "Operating expenses" is no depreciation expense.
    const costs = [passage('1', 'December 31, 2019 2018\nOperating expenses 261,264 194,054\nOperating income 54,388 171,553', 'annual.pdf', 1, 1)];
    const depreciation = (await answerer.answer({ question: 'What was the depreciation expense in 2019?', contexts: costs, history: [] })).text;
    expect(depreciation, 'not led by the operating expenses').to.not.match(/^[^“\n]*261,264/);
    expect((await answerer.answer({ question: 'What were the operating expenses in 2019?', contexts: costs, history: [] })).text).to.match(/^[^“\n]*261,264/);
  });

  it('answers "What does the table show?" with the sentence that announces the table, and its rows', async () => {
    const contexts = [passage('1', 'The harbour opened in 1921. Ferry fares consisted of the following:\n2021 2020\nAdults 12 11\nChildren 6 5', 'fares.pdf', 1, 1)];
    for (const question of ['What does the table show?', 'What financial information does the table show?']) {
      const answer = (await new ExtractiveAnswerer().answer({ question, contexts, history: [] })).text;
      expect(answer, question).to.match(/^“Ferry fares consisted of the following: \| 2021 2020 \| Adults 12 11/);
    }
  });

  it('answers a question that is not about a figure from sentences, even next to a table', async () => {
    const contexts = [passage('1', 'Purchases of equipment 1,577 1,373\nThe company buys equipment to expand its plants in Asia.')];
    const request = { question: 'Why does the company buy equipment?', contexts, history: [] };
    expect(answerer.rankSentences(request)[0].text).to.equal('The company buys equipment to expand its plants in Asia.');
    const answer = await answerer.answer(request);
    expect(answer.text).to.include('The company buys equipment to expand its plants in Asia.').and.not.match(/^\d{4}: /);
  });

  it('says plainly that the documents do not hold the answer when nothing matches', async () => {
    const contexts = [passage('1', 'Bananas are rich in potassium. They ripen in paper bags.')];
    const answer = await answerer.answer({ question: 'What is the boiling point of mercury?', contexts, history: [] });
    expect(answer).to.deep.equal({ text: NOT_FOUND_ANSWER, usedRefs: [] });
  });

  it('says not found, with the closest passage, when what the question asks about is in no passage, though its subject is everywhere', async () => {
    // Asked of a 10-K that never writes "CEO", an answer quoted a list of subsidiaries for holding the company's name.
    const contexts = [
      passage('1', 'Harbor Ferries Ltd. operates 12 routes. Harbor Ferries Ltd. was founded in 1921 in Portland.'),
      passage('2', 'Harbor Ferries Retail Ltd. Oregon. Harbor Ferries Services Inc. Washington.'),
    ];
    const asked = async (question: string) => (await answerer.answer({ question, contexts, history: [] })).text;
    expect(await asked("Who is Harbor Ferries' CEO?")).to.match(/^I could not find this in your documents\. None of the passages I found mentions CEO\.\n\nClosest found: “/);
    expect(await asked('Who is the chief medical officer of Harbor Ferries?')).to.match(/^I could not find this in your documents\. None of the passages I found mentions chief, medical or officer\./);
    // What the passages do hold is answered, misspelled or not, without the note; words that shape the request
    // ("main", "say") need not be held.
    for (const question of ['When was Harbor Ferries founded?', 'When was Harbor Ferries fonded?']) {
      expect(await asked(question)).to.match(/^“/).and.include('Harbor Ferries Ltd. was founded in 1921 in Portland.');
    }
    // A filing's many sentences make a word none of them holds weigh much ("What are the main risks?" of a 10-K).
    const filler = Array.from({ length: 20 }, (_, i) => `Route ${i} carried ${1000 + i} passengers at little risk.`).join(' ');
    const risks = [passage('3', `Competition from airlines and new regulation are the risks the company faces. ${filler}`)];
    for (const question of ['What are the main risks?', 'What does it say about risks?']) {
      const text = (await answerer.answer({ question, contexts: risks, history: [] })).text;
      expect(text, question).to.match(/^“/);
    }
  });

  it('quotes an index’s entries only when nothing else matches: they say where a topic is, not what it says', async () => {
    // The index of shared/data/pdfs/irs-i1040nr-2007.pdf, read across its columns, led the answer about filing late.
    const index = passage('1', 'Index\n18 2004 . . . . . . . . 6 Late filing . . . . . . . . 31 Alternative minimum . . . . 19 Late payment . . . . . 31', 'guide.pdf', 48, 3);
    const text = passage('2', 'Penalty for late filing. If you do not file your return by the due date, the penalty is usually 5% of the amount due for each month.', 'guide.pdf', 31, 1);
    const answer = await answerer.answer({ question: 'What happens if I file late?', contexts: [index, text], history: [] });
    expect(quotes(answer.text).join(' ')).to.include('the penalty is usually 5%').and.not.include('. . . .');
    const only = await answerer.answer({ question: 'What happens if I file late?', contexts: [index], history: [] });
    expect(quotes(only.text).join(' '), 'nothing else: the entry').to.include('Late filing . . .');
    // Leaders that lead to amounts are a price list's, not an index's.
    const prices = passage('3', 'Wire bundle routing change .......... 2 work-hours × $85 per hour = $170 ........ $6,205', 'rule.pdf', 5, 2);
    const cost = await answerer.answer({ question: 'What does the wire bundle routing change cost?', contexts: [index, prices], history: [] });
    expect(quotes(cost.text).join(' ')).to.include('$6,205');
  });

  it('quotes a table of contents without leaders only when nothing else matches, or when the question asks for it', async () => {
    // A printed wiki page's contents box, as OCR reads it (shared/data/pdfs/scanned-epson-wikipedia-ocr.pdf).
    const contents = passage('1', 'Contents\n= 1 History | = 2 Applications | = 3 Types | = 4 Techniques | = 4.5 OCR Tools | s 6 Accuracy = 7 Unicode', 'wiki.pdf', 1, 2);
    const text = passage('2', 'Advanced OCR systems capable of producing a high degree of recognition accuracy for most fonts are now common.', 'wiki.pdf', 1, 1);
    const accuracy = await answerer.answer({ question: 'What is the OCR accuracy?', contexts: [contents, text], history: [] });
    expect(quotes(accuracy.text).join(' ')).to.include('a high degree of recognition accuracy').and.not.include('Techniques');
    const asked = await answerer.answer({ question: 'What sections does the OCR page have?', contexts: [contents, text], history: [] });
    expect(quotes(asked.text).join(' ')).to.include('= 2 Applications');
  });

  it('takes a question’s word that a passage’s file name holds for held: no "not found" for it', async () => {
    const contexts = [passage('1', 'Two-Column Document with Lorem Ipsum\nYour Name\nThis is a sample document with two columns.', 'latex-multicolumn.pdf')];
    const answer = await answerer.answer({ question: 'Who wrote the latex document?', contexts, history: [] });
    expect(answer.text).to.match(/^I could not find this in your documents\. None of the passages I found mentions wrote\./).and.include('Your Name');
    const other = await answerer.answer({ question: 'Who wrote the latex document?', contexts: [{ ...contexts[0], filename: 'sample.pdf' }], history: [] });
    expect(other.text, 'the same passage from a file of another name').to.match(/^I could not find this in your documents\. None of the passages I found mentions wrote or latex/);
  });

  it('takes the question’s words a passage’s file name runs together for held ("Huck Finn" of huckfinn)', async () => {
    const contexts = [passage('1', 'We went tip-toeing along a path amongst the trees back towards the end of the widow’s garden.', 'scanned-huckfinn-p22.pdf')];
    const answer = await answerer.answer({ question: 'Where did Huck Finn go tip-toeing?', contexts, history: [] });
    expect(answer.text).to.include('tip-toeing along a path');
    expect(answer.text).to.not.match(/^I could not find this/);
    const other = await answerer.answer({ question: 'Where did Huck Finn go tip-toeing?', contexts: [{ ...contexts[0], filename: 'scan.pdf' }], history: [] });
    expect(other.text, 'the same passage from a file of another name').to.match(/^I could not find this in your documents\. None of the passages I found mentions Huck or Finn/);
  });

  it('answers a question that repeats a question-shaped heading with the section under it, up to the next heading', async () => {
    const contexts = [
      passage('1', 'A ferry pass must be shown when you board the ferry. Apply for a ferry pass online.', 'ferries.pdf', 2, 3),
      passage('2', 'Fares\nChildren travel free.\nWho Must Apply\nApply For A Pass if\nyou cross more than twice a week. Visitors pay at the gate.\nWhere To Apply\nAt the harbour office.', 'ferries.pdf', 5, 1),
    ];
    const answer = await answerer.answer({ question: 'Who must apply for a ferry pass?', contexts, history: [] });
    expect(quotes(answer.text)).to.deep.equal(['Who Must Apply Apply For A Pass if you cross more than twice a week. Visitors pay at the gate.']);
    expect(answer.text).to.include('Sources: [1] ferries.pdf, page 5');
    const other = await answerer.answer({ question: 'How do I apply for a ferry pass?', contexts, history: [] });
    expect(quotes(other.text)[0], 'no heading repeated: the best sentence').to.include('Apply for a ferry pass online.');
  });

  it('marks a quote that ends on a colon, its list in another passage, as going on', async () => {
    const contexts = [passage('1', 'Who Must Apply\nApply for a ferry pass if you cross more than twice a week. You must apply even if:', 'ferries.pdf', 2)];
    const answer = await answerer.answer({ question: 'Who must apply for a ferry pass?', contexts, history: [] });
    expect(answer.text).to.match(/You must apply even if: …” \[1\]/);
    expect(Object.values(answer.quotes ?? {}).join(' '), 'what it quotes of the passage, as written').to.match(/even if:$/);
  });

  it('takes a question’s word its passage’s file name holds as held by each of its sentences (a report says "we")', async () => {
    // NIKE_2018_10K.pdf: the section "Employees" (page 7) and an exhibit's employment agreement (page 84).
    const contexts = [
      passage('1', 'Employees\nAs of May 31, 2018, we had approximately 73,100 employees worldwide, including retail and part-time employees.', 'NIKE_2018_10K.pdf', 7, 8),
      passage('2', 'If EMPLOYEE voluntarily terminates employment and NIKE elects to enforce the agreement, NIKE shall pay EMPLOYEE a monthly payment equal to fifty percent (50%) of EMPLOYEE’s last monthly base salary.', 'NIKE_2018_10K.pdf', 84, 9),
    ];
    const answer = await answerer.answer({ question: 'How many employees does Nike have?', contexts, history: [] });
    expect(quotes(answer.text)[0]).to.include('approximately 73,100 employees worldwide');
  });

  it('answers a computed figure whose row label holds a word that would otherwise ask something else ("related")', async () => {
    const text = 'Accrued liabilities (in thousands)\n2021 2020\nPayroll accruals $116.9 $105.9\nTax related accruals 30.8 38.4\nOther accruals 12.0 9.0';
    const answer = await answerer.answer({ question: 'What is the average tax related accruals for 2020 and 2021?', contexts: [passage('1', text)], history: [] });
    expect(answer.text.split('\n')[0]).to.equal('Average Tax related accruals, 2020 and 2021: $34.6 thousand ((38.4 + 30.8) / 2 = 34.6)');
    const why = await answerer.answer({ question: 'Why did payroll accruals rise in 2021?', contexts: [passage('1', text)], history: [] });
    expect(why.text.split('\n')[0]).to.not.match(/^Change in/);
  });

  it('follows a sentence announcing a table on a colon with the table’s lines, without their dot leaders', async () => {
    // shared/data/pdfs/federal-register-2020-17221.pdf, page 5.
    const text = [
      'The FAA estimates that this proposed AD affects 73 airplanes of U.S. registry. The agency estimates the following costs to comply with this proposed AD:',
      'ESTIMATED COSTS',
      'Action Labor cost Parts cost Cost per product Cost on U.S. operators',
      'FCC OPS installation and verification .. 1 work-hour × $85 per hour = $85 ...... $0 .......... $85 .......... $6,205.',
      'AFM revisions ....................... 1 work-hour × $85 per hour = $85 ...... $0 .......... $85 .......... $6,205.',
      'Operators may be covered under warranty, thereby reducing the cost impact on affected individuals.',
    ].join('\n');
    const answer = await answerer.answer({ question: 'What are the estimated costs?', contexts: [passage('1', text, 'notice.pdf', 5)], history: [] });
    expect(quotes(answer.text)[0]).to.include('the following costs to comply with this proposed AD: ESTIMATED COSTS Action Labor cost')
      .and.include('Cost on U.S. operators | FCC OPS installation and verification 1 work-hour × $85 per hour = $85 $0 $85 $6,205 | AFM revisions 1 work-hour');
    // The table in another passage: the quote says it goes on, as before.
    const [lead, ...table] = text.split('\n');
    const apart = [passage('1', lead, 'notice.pdf', 5), passage('2', table.join('\n'), 'notice.pdf', 6)];
    const plain = await answerer.answer({ question: 'What are the estimated costs?', contexts: apart, history: [] });
    expect(quotes(plain.text)[0]).to.match(/the following costs to comply with this proposed AD: …$/);
  });

  it('describes every sentence by one value in 0..1 per feature, with one weight per feature', () => {
    expect(SENTENCE_WEIGHTS).to.have.length(SENTENCE_FEATURES.length);
    const contexts = [
      passage('1', 'The harbour opened in 1854. It was enlarged twice. Ships from Norway still call there.', 'a.pdf', 1, 4),
      passage('2', 'Harbour fees rose in 1990. Fishing boats pay less than ferries.', 'b.pdf', 2, 2),
    ];
    const ranked = answerer.rankSentences({ question: 'When did the Norway harbour open?', contexts, history: [] });
    expect(ranked.length).to.be.greaterThan(0);
    for (const c of ranked) {
      expect(c.features).to.have.length(SENTENCE_FEATURES.length);
      for (const value of c.features) expect(value).to.be.within(0, 1);
    }
    const scores = ranked.map((c) => c.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
  });
});
