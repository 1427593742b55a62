import { expect } from 'chai';
import { asWrittenInPassages } from '../../../adapters/extractive/compound-words.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passages = (...texts: string[]): ContextPassage[] => texts.map((text, i) => ({ ref: String(i + 1), filename: 'a.pdf', page: 1, text, score: 1 }));

describe('compounds written as the passages write them (adapters/extractive/compound-words.ts)', () => {
  it('joins two words the passages write as one, and splits one they write as two', () => {
    expect(asWrittenInPassages('What is the Linn sequencer?', passages('The LinnSequencer is a composition tool. See your Linn dealer.'))).to.equal('What is the Linnsequencer?');
    expect(asWrittenInPassages('What does health-care cost?', passages('Healthcare costs rose.'))).to.equal('What does healthcare cost?');
    expect(asWrittenInPassages('Where is the website?', passages('Visit our web site for more.'))).to.equal('Where is the web site?');
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
  });
});
