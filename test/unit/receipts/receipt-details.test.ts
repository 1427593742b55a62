import { expect } from 'chai';
import { askedReceiptDetail, detailLines } from '../../../adapters/receipts/receipt-details.js';
import { receiptsAnswerSkill, receiptsQueryPlanner } from '../../../adapters/receipts/index.js';
import type { ChunkHit } from '../../../core/index.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passage = (text: string, ref: string, filename: string): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });
const answer = (question: string, contexts: ContextPassage[]) => receiptsAnswerSkill.answer({ question, contexts, history: [] })?.text;

import { CARD_SLIP, DRUGSTORE, GROCER, HARDWARE } from './ocr-receipts.js';

describe('a receipt’s day, payment and VAT', () => {
  it('tells which detail a question asks for, and none of other questions', () => {
    const asked = {
      'When did I shop at Hornbach?': 'date', 'What date is on the Lidl receipt?': 'date', 'Wann war ich bei Aldi?': 'date',
      'Did I pay by card at Lidl?': 'payment', 'How did I pay at Ikea?': 'payment', 'Wie habe ich bei Lidl bezahlt?': 'payment',
      'How much VAT is on the Ikea receipt?': 'vat', 'How much tax did I pay at Aldi?': 'vat', 'Wie viel MwSt?': 'vat',
    } as const;
    for (const [question, detail] of Object.entries(asked)) expect(askedReceiptDetail(question), question).to.equal(detail);
    for (const question of ['How much did I pay at Aldi?', 'What did I buy at Lidl?', 'Who paid the bill?', 'What happened then?', 'What was the effective tax rate in 2019?', 'When did the act take effect?', 'What date was the notice published?', 'Was the fee paid by credit card?']) {
      expect(askedReceiptDetail(question), question).to.equal(undefined);
    }
  });

  it('finds the day (a card slip’s Datum first), the payment lines and the VAT rows with their heading', () => {
    expect(detailLines(CARD_SLIP, 'date')).to.deep.equal(['Karte 1 glltig bis ##/## Datum 23.09.16 14:05 Uhr Zahlung erfolgt']);
    expect(detailLines(GROCER, 'date')).to.deep.equal(['3182 3 15:54 02.03.2020']);
    expect(detailLines(GROCER, 'payment')).to.deep.equal(['Bar 10,00']);
    expect(detailLines(HARDWARE, 'payment')).to.deep.equal(['GEGEBEN ec-Karte EUR 152,00']);
    expect(detailLines(GROCER, 'vat')).to.deep.equal(['MWST% MNST + Netto = Brufto', 'A 7% 0,47 6,69 7,16']);
    expect(detailLines('The meeting is on Monday. Nothing was paid.', 'date')).to.deep.equal([]);
    // A card slip's lines run into one by OCR: the words around the day.
    const slip = 'Karte 1 gultig bis ##/## EMV-AID AD000003591010028001 VU-Nr 0833220902 Genehmigungs-Nr 999043 Datum 23.09.16 14:05 Uhr EMV-Daten 0000/E800 xxx Zahlung erfolgt xxx BITTE BELEG AUFBEWAHREN';
    expect(detailLines(slip, 'date')).to.deep.equal(['… VU-Nr 0833220902 Genehmigungs-Nr 999043 Datum 23.09.16 14:05 Uhr EMV-Daten 0000/E800 …']);
  });

  it('answers of the receipt the question names, from whichever of its passages prints the detail, quoted and cited', () => {
    const contexts = [passage(GROCER, '1', 'receipt_lidl.jpg'), passage(HARDWARE, '2', 'receipt_hornbach.jpg'), passage(CARD_SLIP, '3', 'receipt_hornbach.jpg')];
    expect(answer('When did I shop at Hornbach?', contexts)).to.equal(
      '“Karte 1 glltig bis ##/## Datum 23.09.16 14:05 Uhr Zahlung erfolgt” [1]\n\nSources: [1] receipt_hornbach.jpg, page 1');
    expect(answer('Did I pay by card at Lidl?', contexts)).to.equal('“Bar 10,00” [1]\n\nSources: [1] receipt_lidl.jpg, page 1');
    expect(answer('How much VAT is on the Lidl receipt?', contexts)).to.equal(
      '“MWST% MNST + Netto = Brufto … A 7% 0,47 6,69 7,16” [1]\n\nSources: [1] receipt_lidl.jpg, page 1');
    expect(answer('When did I go shopping?', contexts), 'several receipts, none named').to.equal(undefined);
    expect(answer('When did I go shopping?', contexts.slice(0, 1)), 'the only receipt').to.match(/^“3182 3 15:54 02.03.2020” \[1\]/);
  });

  it('leaves a question to the answerer when no receipt is asked of, or none prints the detail', () => {
    const report = passage('The committee met on 12.03.2020 to discuss the total budget of 4.5 million euros.', '1', 'minutes.pdf');
    expect(answer('When did the committee meet?', [report]), 'no receipt').to.equal(undefined);
    // A filing named by the question, with amounts in cents and a "Total" row of several figures: no receipt.
    const filing = passage(['Amcor plc annual report', 'Income tax expense 1.23 2.34 3.45', 'Total 2.35 2.10 1.98', 'Dated 12.03.2020'].join('\n'), '1', 'amcor-2020-10k.pdf');
    expect(answer('How much VAT did Amcor pay in 2020?', [filing])).to.equal(undefined);
    expect(answer('When did I pay Amcor?', [filing])).to.equal(undefined);
    const noVat = passage(HARDWARE, '1', 'receipt_hornbach.jpg');
    expect(answer('How much VAT is on the Hornbach receipt?', [noVat])).to.equal(undefined);
  });

  it('quotes a named receipt’s total line as OCR read it when its amount is garbled, not the other receipts’ totals', () => {
    const contexts = [passage(GROCER, '1', 'receipt_lidl.jpg'), passage(DRUGSTORE, '2', 'receipt_rossmann.jpg')];
    expect(answer('How much did I spend at Rossmann?', contexts)).to.equal('“Total £1195” [1]\n\nSources: [1] receipt_rossmann.jpg, page 1');
    expect(answer('How much did I spend at Lidl?', contexts)).to.match(/^7,16 — “zu zahlen 7,16” \[1\]/);
    // A document named that is no receipt: its "Total" line is no garbled total.
    const filing = passage('Acme Corp annual report\nTotal revenue 32,765\nNet income 4,120', '3', 'acme-annual-report.pdf');
    expect(answer('How much did I pay at Acme?', [...contexts, filing])).to.not.match(/revenue/);
  });

  it('pins, within the documents named, a passage that prints the detail asked', () => {
    const [search, ...more] = receiptsQueryPlanner.pinnedSearches('When did I shop at Hornbach?');
    expect(more).to.deep.equal([]);
    expect(search).to.include({ focusedOnly: true });
    const hit = (text: string): ChunkHit => ({ chunk: { id: text, jobId: 'j', sessionId: 's', ordinal: 0, page: 1, text, tags: {} } as ChunkHit['chunk'], score: 1 });
    expect(search!.holding([hit(HARDWARE), hit(CARD_SLIP)]).map((h) => h.chunk.text)).to.deep.equal([CARD_SLIP]);
  });
});
