import { expect } from 'chai';
import { receiptOverview } from '../../../adapters/receipts/receipt-overview.js';
import { receiptsAnswerSkill } from '../../../adapters/receipts/index.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { CARD_SLIP, DRUGSTORE, HARDWARE } from './ocr-receipts.js';

const passage = (text: string, ref: string, filename: string): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });

const REPORT = [
  'Acme Corp. reported record results in 2019. Revenue grew in every region, and the board raised the dividend.',
  'Earnings per share (in dollars) 2019 2018', 'Basic 2.12 1.49', 'Diluted 2.10 1.48', 'Total dividends per share 1.44',
  'The company expects growth to continue as new plants open in Asia and Europe over the next two years.',
].join('\n');

describe('a receipt in an overview', () => {
  it('tells a receipt by its day, its total and its first items (a card slip’s amount is none), and cites the passages it read them from', () => {
    const told = receiptOverview([passage(HARDWARE, 'a', 'receipt_hornbach.jpg'), passage(CARD_SLIP, 'b', 'receipt_hornbach.jpg')]);
    expect(told?.text).to.equal('A receipt of 23.09.16 14:05, total 152,00 (“SUMME [3] EUR 152,00”): “2 Rolle x 4,85 … PARKETTZUBEHOR 9,70 1 … SELITstop Komfort-Fe 49,80 1”.');
    expect(told?.usedRefs).to.have.members(['a', 'b']);
  });

  it('tells a receipt whose total OCR garbled by what it could read, the change given left out', () => {
    expect(receiptOverview([passage(DRUGSTORE, 'a', 'receipt_rossmann.jpg')])?.text).to.equal('A receipt of 27.02.2020 15:56: “662034502022 ZEISS BRILLENPUTZTUC €1,95 4”.');
    // Under another name it still reads as one: a total word among amounts, and no prose.
    expect(receiptOverview([passage(DRUGSTORE, 'a', 'scan_0001.jpg')])?.text).to.match(/^A receipt of 27\.02\.2020 15:56: /);
    expect(receiptOverview([passage(DRUGSTORE.split('\n').slice(0, 3).join('\n'), 'a', 'scan_0001.jpg')])).to.equal(undefined);
  });

  it('leaves other documents to the usual overview, a report with a "Total" row of one figure too', async () => {
    expect(receiptOverview([passage(REPORT, 'a', 'acme-annual-report.pdf')])).to.equal(undefined);
    const answerer = new ExtractiveAnswerer(undefined, [receiptsAnswerSkill]);
    const overview = await answerer.answer({ question: 'What documents do I have?', overview: true, history: [],
      contexts: [passage(HARDWARE, 'a', 'receipt_hornbach.jpg'), passage(REPORT, 'b', 'acme-annual-report.pdf')] });
    expect(overview.text.split('\n\n')).to.deep.equal([
      'receipt_hornbach.jpg: A receipt, total 152,00 (“SUMME [3] EUR 152,00”): “2 Rolle x 4,85 … PARKETTZUBEHOR 9,70 1 … SELITstop Komfort-Fe 49,80 1”.',
      'acme-annual-report.pdf: Acme Corp. reported record results in 2019. Revenue grew in every region, and the board raised the dividend. The company expects growth to continue as new plants open in Asia and Europe over the next two years.',
    ]);
    expect(overview.usedRefs).to.have.members(['a', 'b']);
  });
});
