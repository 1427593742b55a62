import { expect } from 'chai';
import { asWrittenInPassages } from '../../../adapters/extractive/passage-wording.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passages = (...texts: string[]): ContextPassage[] => texts.map((text, i) => ({ ref: String(i + 1), filename: 'a.pdf', page: 1, text, score: 1 }));

describe('compounds written as the passages write them (adapters/extractive/passage-wording.ts)', () => {
  it('joins two words the passages write as one, and splits one they write as two', () => {
    expect(asWrittenInPassages('What is the Linn sequencer?', passages('The LinnSequencer is a composition tool. See your Linn dealer.'))).to.equal('What is the Linnsequencer?');
    expect(asWrittenInPassages('What does health-care cost?', passages('Healthcare costs rose.'))).to.equal('What does healthcare cost?');
    expect(asWrittenInPassages('Where is the website?', passages('Visit our web site for more.'))).to.equal('Where is the web site?');
  });

  it('sets a word apart from the figure it runs into, and leaves short forms such as FY2019 or Q3 alone', () => {
    const text = passages('Maintenance 14,210 15,002');
    expect(asWrittenInPassages('In which year was Maintenance less than15,000 thousands?', text)).to.equal('In which year was Maintenance less than 15,000 thousands?');
    expect(asWrittenInPassages('What was FY2019 maintenance in Q3 and in covid19 times?', text)).to.equal('What was FY2019 maintenance in Q3 and in covid19 times?');
  });

  it('writes an acronym out as the passages do, when they never write it as such', () => {
    const signatures = passages('By: Reed Hastings Chief Executive Officer (principal executive officer)', 'Our Chief Executive Officer and Chief Financial Officer evaluated the controls.');
    expect(asWrittenInPassages('Who is the CEO?', signatures)).to.equal('Who is the Chief Executive Officer?');
    expect(asWrittenInPassages('What did the SEC say?', passages('Filed with the Securities and Exchange Commission.'))).to.equal('What did the Securities and Exchange Commission say?');
    expect(asWrittenInPassages('What did the SEC say?', passages('Filed with the SEC, the Securities and Exchange Commission.'))).to.equal('What did the SEC say?');
    expect(asWrittenInPassages('What is NATO?', passages('Nothing of the kind here.'))).to.equal('What is NATO?');
    // From four letters, as a table's label writes it: the first word capitalised, a small word one of the letters.
    expect(asWrittenInPassages('What is the COGS for 2019?', passages('2019 2018\nNet sales 100 90\nCost of goods sold (50) (40)'))).to.equal('What is the Cost of goods sold for 2019?');
    expect(asWrittenInPassages('What was the ARPU?', passages('Average revenue per user 12.5 11.2'))).to.equal('What was the Average revenue per user?');
    // Three letters still need capitals: "the cash earnings outlook" is no CEO.
    expect(asWrittenInPassages('Who is the CEO?', passages('The cash earnings outlook is good.'))).to.equal('Who is the CEO?');
  });

  it('leaves a form the passages also write as asked, and function words and short parts alone', () => {
    expect(asWrittenInPassages('What does health care cost?', passages('Healthcare costs rose.', 'Health care is dear.'))).to.equal('What does health care cost?');
    expect(asWrittenInPassages('Is it in the report?', passages('The inthe report is late. Itis so.'))).to.equal('Is it in the report?');
    expect(asWrittenInPassages('Where is the island?', passages('There is land to the north.'))).to.equal('Where is the island?');
    expect(asWrittenInPassages('Where is the website?', [])).to.equal('Where is the website?');
  });

  it('lets the answerer quote the sentence about a compound the question writes apart', async () => {
    // shared/data/pdfs/scanned-linn-2col.pdf's OCR, which writes the product's name as one word.
    const contexts = passages(
      'The LinnSequencer 32 Track MIDI Sequence Recorder Recording a Sequence Linn Electronics, Inc. TELEX #298949 LINN UR See your Linn dealer today for a demonstration!',
      'The LinnSequencer is a state-of-the-art composition and performance tool for the professional musician.',
    );
    const answer = await new ExtractiveAnswerer().answer({ question: 'What is the Linn sequencer?', contexts, history: [] });
    expect(answer.text).to.include('The LinnSequencer is a state-of-the-art composition and performance tool');
    // A filing's signatures answer "Who is the CEO?" without a note that no passage mentions CEO.
    const signed = passages('The company leases its headquarters in Los Gatos, California.', 'Dated: January 29, 2018 By: Reed Hastings Chief Executive Officer (principal executive officer)');
    const ceo = await new ExtractiveAnswerer().answer({ question: 'Who is the CEO?', contexts: signed, history: [] });
    expect(ceo.text.startsWith('“Dated: January 29, 2018 By: Reed Hastings Chief Executive Officer')).to.equal(true);
  });
});
