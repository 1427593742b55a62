import { expect } from 'chai';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { documentsNamed, isOverviewQuestion, overviewAnswer, overviewSubject } from '../../../core/rag/overview.js';

describe('overview questions (core/rag/overview.ts)', () => {
  it('recognises questions about the documents as a whole', () => {
    for (const q of [
      'What is this document about?', 'Summarize the report', 'Summarise this.', 'What are the main points?',
      'Give me a short summary of the file', 'What is the gist?', 'Can you give an overview of these documents?',
      'What are the key takeaways?', 'what’s this paper about', 'Main topics of the document?', 'Describe the PDF.',
    ]) expect(isOverviewQuestion(q), q).to.equal(true);
  });

  it('leaves questions with a subject of their own to retrieval', () => {
    for (const q of [
      'What is the report’s revenue in 2022?', 'Summarize the risk factors', 'What is the main cause of glacier retreat?',
      'What does the document say about wire transfer fees?', 'Who wrote the report?', 'What is this?', 'Hello',
      'When was the document signed?', '', 'What are the key points of the merger agreement?',
      'What happens if I file the form late?', 'What happened to the report?', 'What happens when the contract ends?',
    ]) expect(isOverviewQuestion(q), q).to.equal(false);
    expect(isOverviewQuestion('What happened in the report?'), 'what happens in a document: its gist').to.equal(true);
    expect(overviewSubject('What happened in 1992 in a UK-wide process?'), 'a subject of its own').to.equal(undefined);
  });

  it('takes asking what the documents are for an overview, and not a question about a page or an earlier answer', () => {
    for (const q of ['What documents do I have?', 'Which files did I upload?', 'Can you list my documents?', 'What’s in this file?', 'What is in the contract?'])
      expect(isOverviewQuestion(q), q).to.equal(true);
    expect(overviewSubject('What Nike files do I have?')).to.deep.equal(['nike']);
    for (const q of ['What page is it in?', 'Which file is that in?', 'What is in section 3?', 'Which document says the rent is due?', 'List the risk factors'])
      expect(isOverviewQuestion(q), q).to.equal(false);
    expect(documentsNamed(overviewSubject('What documents mention revenue?')!, [{ filename: 'NIKE_2019_10K.pdf' }]), 'a subject: retrieval').to.deep.equal([]);
  });

  it('finds the words an overview question names its documents by, and the documents whose file names hold them all', () => {
    expect(overviewSubject('What is this document about?')).to.deep.equal([]);
    expect(overviewSubject('Summarize the Costco report')).to.deep.equal(['costco']);
    expect(overviewSubject("What is Nike's 2019 10-K about?")).to.deep.equal(['nike', '2019', '10k']);
    expect(overviewSubject('Summarize the risk factors')).to.deep.equal(['risk', 'factor']);
    expect(overviewSubject('What are the key points of the report on glacier retreat in the Swiss Alps?'), 'too many words').to.equal(undefined);
    expect(overviewSubject('What was the revenue in 2019?'), 'asks nothing of an overview').to.equal(undefined);
    expect(overviewSubject('What about Costco?'), 'a follow-up').to.equal(undefined);
    const documents = [{ filename: 'COSTCO_2021_10K.pdf' }, { filename: 'NIKE_2019_10K.pdf' }, { filename: 'nike-2021-10-K.pdf' }];
    expect(documentsNamed(['costco'], documents)).to.deep.equal([documents[0]]);
    expect(documentsNamed(['nike', '2019', '10k'], documents)).to.deep.equal([documents[1]]);
    expect(documentsNamed(['nike', '10k'], documents)).to.deep.equal([documents[1], documents[2]]);
    expect(documentsNamed(['risk', 'factor'], documents)).to.deep.equal([]);
  });

  it('takes words a file name runs together for naming it, given the question', () => {
    const documents = [{ filename: 'scanned-huckfinn-p22.pdf' }, { filename: 'GENERALMILLS_2019_10K.pdf' }, { filename: 'dmca-summary-1998.pdf' }];
    const named = (question: string) => documentsNamed(overviewSubject(question)!, documents, question);
    expect(named('Summarize the Huck Finn page')).to.deep.equal([documents[0]]);
    expect(named('What is the General Mills report about?')).to.deep.equal([documents[1]]);
    expect(named('What is the Huck report about?'), 'one word of the run is not its name').to.deep.equal([]);
    expect(named('What happens in the Huck Finn page?'), 'a story’s gist').to.deep.equal([documents[0]]);
    expect(documentsNamed(overviewSubject('Summarize the Huck Finn page')!, documents), 'without the question').to.deep.equal([]);
  });

  const passage = (ref: string, filename: string, page: number, text: string): ContextPassage => ({ ref, filename, page, text, score: 1 });

  it('answers with each document’s lead and most central sentences, in reading order, citing what it quoted', () => {
    const glaciers = [
      passage('1', 'glaciers.pdf', 1,
        'Alpine Glaciers. Alpine glaciers are retreating across the Alps as summer temperatures rise every decade. ' +
        'The village bakery opened a second shop near the station last spring. ' +
        'Rising summer temperatures melt the glaciers faster than winter snow can rebuild the ice.'),
      passage('2', 'glaciers.pdf', 2,
        'Scientists measure how far the glaciers retreat each summer with satellite images of the ice. ' +
        'A local choir performs on Sundays.'),
    ];
    const answer = overviewAnswer(glaciers);
    const sentences = answer.text.split(/(?<=\.) /);
    expect(sentences[0]).to.equal('Alpine glaciers are retreating across the Alps as summer temperatures rise every decade.');
    expect(answer.text).to.include('Rising summer temperatures melt the glaciers');
    expect(answer.text).to.include('Scientists measure how far the glaciers retreat');
    // Off-topic sentences share no words with the rest: not central.
    expect(answer.text).to.not.include('bakery');
    expect(answer.text).to.not.include('choir');
    expect(answer.usedRefs.sort()).to.deep.equal(['1', '2']);
  });

  it('does not lead with a citation that the text layer put first (numbers are not words)', () => {
    // shared/data/pdfs/dmca-summary-1998.pdf: its first page's footnote comes first in the text layer.
    const answer = overviewAnswer([passage('1', 'dmca.pdf', 1,
      'Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998). ' +
      'The Digital Millennium Copyright Act was signed into law by President Clinton on October 28, 1998.')]);
    expect(answer.text).to.equal('The Digital Millennium Copyright Act was signed into law by President Clinton on October 28, 1998.');
  });

  it('does not lead with the headline the text layer ran into the first sentence', () => {
    // shared/data/pdfs/dmca-summary-1998.pdf's first page as chunked: page header, title and section name before it.
    const answer = overviewAnswer([passage('1', 'dmca.pdf', 1,
      '1 Copyright Office Summary December 1998 Page 1 THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998 U.S. Copyright Office ' +
      'Summary December 1998 INTRODUCTION The Digital Millennium Copyright Act (DMCA) was signed into law on October 28, 1998.')]);
    expect(answer.text).to.equal('The Digital Millennium Copyright Act (DMCA) was signed into law on October 28, 1998.');
    // A sentence whose subject is a short name in capitals stays whole.
    const named = 'IBM Watson was shown on television in 2011 and won the quiz.';
    expect(overviewAnswer([passage('2', 'ibm.pdf', 1, named)]).text).to.equal(named);
  });

  it('leads with the document’s own summary where a label says where it is', () => {
    // shared/data/pdfs/federal-register-2020-17221.pdf: a sidebar of boilerplate comes first in the text layer.
    const notice = overviewAnswer([
      passage('1', 'fr.pdf', 1, 'This section of the FEDERAL REGISTER contains notices to the public of the proposed issuance of rules. ' +
        'The purpose of these notices is to give interested persons an opportunity to participate in the rule making.'),
      passage('2', 'fr.pdf', 1, 'ACTION: Notice of proposed rulemaking (NPRM). SUMMARY: The FAA proposes to supersede Airworthiness Directive 2018-23-51, which applies to all Boeing 737 MAX airplanes.'),
    ]);
    expect(notice.text).to.not.match(/^This section/);
    expect(notice.text).to.include('The FAA proposes to supersede Airworthiness Directive 2018-23-51');
    expect(notice.text).to.not.include('SUMMARY');
    // A paper's abstract under a heading of its own leads, not the author line above it.
    const paper = overviewAnswer([passage('1', 'paper.pdf', 1,
      'Jane Doe is a researcher at the Institute of Examples in the city of Springfield.\nAbstract\nWe show that glaciers in the Alps retreat faster than models predict.')]);
    expect(paper.text.startsWith('We show that glaciers')).to.equal(true, paper.text);
    // The label on a line of its own may end on a colon or a full stop.
    for (const label of ['Summary:', 'Abstract.', 'EXECUTIVE SUMMARY —']) {
      const labelled = overviewAnswer([passage('1', 'paper.pdf', 1,
        `Jane Doe is a researcher at the Institute of Examples in the city of Springfield.\n${label}\nWe show that glaciers in the Alps retreat faster than models predict.`)]);
      expect(labelled.text.startsWith('We show that glaciers'), label).to.equal(true, labelled.text);
    }
  });

  it('tells a document as `describe` does where it knows the document’s kind, citing what it cites', () => {
    const answer = overviewAnswer([
      passage('1', 'a.pdf', 1, 'The first document explains how mortgage interest rates are set by the central bank.'),
      passage('2', 'till.jpg', 1, 'Shop Street 1\nBREAD 2,49\nTOTAL 2,49'),
      passage('3', 'till.jpg', 1, 'Thank you for shopping with us today.'),
    ], (passages) => (passages[0].filename === 'till.jpg' ? { text: 'A receipt, total 2,49.', usedRefs: ['2'] } : undefined));
    expect(answer.text.split('\n\n')).to.deep.equal([
      'a.pdf: The first document explains how mortgage interest rates are set by the central bank.',
      'till.jpg: A receipt, total 2,49.',
    ]);
    expect(answer.usedRefs).to.have.members(['1', '2']);
  });

  it('tells a document that opens with a table and no prose by its table, and leads with no table text run together', () => {
    // shared/data/pdfs/nics-background-checks-2015-11.pdf as chunked: a header of names, then a row per state.
    const header = 'State / Territory Permit Handgun Long Gun *Other **Multiple Admin Handgun Long Gun *Other Handgun Long Gun *Other ' +
      'Handgun Long Gun *Other Handgun Long Gun Handgun Long Gun *Other Handgun Long Gun *Other Totals';
    const table = overviewAnswer([passage('1', 'nics.pdf', 1, `${header}\nAlabama 18,870 23,022 22,650 71,137\nAlaska 209 3,062 3,209 7,095\nArizona 2,303 12,382 9,041 27,087\nArkansas 3,298 6,359 11,611 25,048`)]);
    expect(table).to.deep.equal({ text: 'A table under “State / Territory Permit Handgun Long Gun *Other **Multiple Admin Handgun Long …”, with rows such as Alabama, Alaska and Arizona.', usedRefs: ['1'] });
    // shared/data/pdfs/pdflatex-outline.pdf: its table of contents run into the first sentence.
    const contents = overviewAnswer([passage('1', 'outline.pdf', 1, '1 Foo 2 2 Bar 2 3 Baz 2 4 Foo 2 5 Bar 3 6 Baz 3 7 Foo 3 8 Bar 4 9 Baz 4\nThis text should show what a printed text will look like at this place.')]);
    expect(contents.text).to.equal('This text should show what a printed text will look like at this place.');
  });

  it('covers every document, each under its name, and says nothing when there is nothing to say', () => {
    const answer = overviewAnswer([
      passage('1', 'a.pdf', 1, 'The first document explains how mortgage interest rates are set by the central bank.'),
      passage('2', 'b.pdf', 1, 'The second document lists the opening hours of every branch office in the region.'),
    ]);
    expect(answer.text.split('\n\n')).to.deep.equal([
      'a.pdf: The first document explains how mortgage interest rates are set by the central bank.',
      'b.pdf: The second document lists the opening hours of every branch office in the region.',
    ]);
    expect(overviewAnswer([])).to.deep.equal({ text: '', usedRefs: [] });
  });
});
