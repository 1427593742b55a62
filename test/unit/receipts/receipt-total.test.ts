import { expect } from 'chai';
import { asksWhatWasBought, asksWhatWasPaid, MORE_RECEIPTS_NOTE, receiptTotal, receiptTotalAnswer, receiptsQueryPlanner, receiptsAnswerSkill } from '../../../adapters/receipts/index.js';
import type { ContextPassage } from '../../../core/ports/llm.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';

const passage = (text: string, ref = '1', filename = 'receipt.jpg'): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });

const RECEIPT = [
  'Markt Paderborn', 'MILCH 1,5% 1,19 A', 'BROT 2,49 A', 'KAFFEE 5,99 B',
  'ZU ZAHLEN EUR 9,67', 'BAR 20,00', 'RUECKGELD 10,33',
  'MWST NETTO BRUTTO', 'A 7% 3,43 0,25 3,68', 'Summe 8,46 1,21 9,67',
].join('\n');

describe('the total of a till receipt', () => {
  it('tells questions about what was paid from others', () => {
    for (const q of ['How much did I pay at Aldi?', 'How much did I spend there?', 'What is the total on the receipt?', 'What did I pay?', 'Wie viel habe ich bei Lidl bezahlt?', 'How much was the Ikea receipt?', 'How much is my Lidl shopping?', 'What was paid at IKEA?', 'What did it cost at Hornbach?']) {
      expect(asksWhatWasPaid(q), q).to.equal(true);
    }
    for (const q of ['What did I buy at Aldi?', 'Where is the shop?', 'What is the total revenue in 2021?', 'Who paid the bill of rights?', 'How much VAT is on the receipt?', 'How much of the bill was tax?']) {
      expect(asksWhatWasPaid(q), q).to.equal(false);
    }
  });

  it('finds the amount to pay before the sum of the items, and not a VAT table’s sum', () => {
    expect(receiptTotal(RECEIPT)).to.include({ line: 'ZU ZAHLEN EUR 9,67', amount: '9,67' });
    const sumOnly = RECEIPT.replace('ZU ZAHLEN EUR 9,67', 'SUMME [3] EUR 9,67');
    expect(receiptTotal(sumOnly)).to.include({ line: 'SUMME [3] EUR 9,67', amount: '9,67' });
  });

  it('takes no amount that comes before its word, and nothing from text that is no receipt', () => {
    expect(receiptTotal(['Bar 2,00 Rueckgeld 0,05 Total', 'TEE 1,95 A', 'KEKSE 0,99 A'].join('\n'))).to.equal(undefined);
    expect(receiptTotal('The total cost of the project was 4.50 million dollars.')).to.equal(undefined);
    expect(receiptTotal(['Net sales 1,577 1,602', 'Total revenue 32,765', 'Cost of sales 16,682'].join('\n')), 'figures without cents').to.equal(undefined);
  });

  it('answers with the total of the first receipt among the passages, quoted and cited, and leaves other questions alone', () => {
    const contexts = [passage('Opening hours 9 to 20', '1', 'notes.pdf'), passage(RECEIPT, '2', 'aldi.jpg')];
    const answer = receiptTotalAnswer({ question: 'How much did I pay at Aldi?', contexts, history: [] });
    expect(answer).to.deep.equal({
      text: '9,67 — “ZU ZAHLEN EUR 9,67” [1]\n\nSources: [1] aldi.jpg, page 1',
      usedRefs: ['2'], markers: { 2: 1 }, quotes: { 2: 'ZU ZAHLEN EUR 9,67' },
    });
    expect(receiptTotalAnswer({ question: 'How much did I pay?', contexts: [contexts[0]], history: [] })).to.equal(undefined);
    expect(receiptsAnswerSkill.answer({ question: 'How much did I pay at Aldi?', contexts, history: [] })?.text).to.match(/^9,67 — /);
  });

  it('answers a question naming an item with its line, not the total; a shop named is no item', () => {
    const contexts = [passage(RECEIPT, '2', 'aldi.jpg')];
    const item = receiptTotalAnswer({ question: 'How much did the Kaffee cost?', contexts, history: [] });
    expect(item).to.deep.equal({
      text: '5,99 — “KAFFEE 5,99 B” [1]\n\nSources: [1] aldi.jpg, page 1',
      usedRefs: ['2'], markers: { 2: 1 }, quotes: { 2: 'KAFFEE 5,99 B' },
    });
    const two = receiptTotalAnswer({ question: 'How much did I pay for milch and brot?', contexts, history: [] });
    expect(two?.text, 'two items: both lines, no one amount').to.equal('“MILCH 1,5% 1,19 A … BROT 2,49 A” [1]\n\nSources: [1] aldi.jpg, page 1');
    for (const question of ['How much did I pay at Markt Paderborn?', 'How much did I pay at Aldi?', 'What is the sum on the receipt?']) {
      expect(receiptTotalAnswer({ question, contexts, history: [] })?.text, question).to.match(/^9,67 — /);
    }
  });

  it('plans a search for the total line, within the documents a question names, only for questions about what was paid or bought', () => {
    const [search] = receiptsQueryPlanner.pinnedSearches('How much did I pay at Aldi?');
    expect(search).to.include({ focusedOnly: true });
    const hit = (text: string) => ({ chunk: { id: text, sessionId: 's', jobId: 'j', filename: 'r.jpg', page: 1, ordinal: 0, text, tags: {} }, score: 1 });
    expect(search.holding([hit('Opening hours'), hit(RECEIPT)]).map((h) => h.chunk.text)).to.deep.equal([RECEIPT]);
    expect(receiptsQueryPlanner.pinnedSearches('What did I buy at Lidl?').map((search) => search.focusedOnly)).to.deep.equal([true]);
    expect(receiptsQueryPlanner.pinnedSearches('Where is the Lidl?')).to.deep.equal([]);
    // What a named shop's receipt lists is read whole (its item lines hold no word of the question); not of every receipt.
    expect(['What did I buy at Lidl?', 'What did I buy?', 'How much did I pay at Aldi?'].map((q) => receiptsQueryPlanner.wholeDocuments!(q))).to.deep.equal([4, 0, 0]);
    expect(receiptsQueryPlanner.lexicalQuery('How much did I pay?')).to.equal('How much did I pay?');
  });

  it('asked what I paid of several receipts, none named, lists each one’s total; one named, that one’s', () => {
    const lidl = ['LDL Warburger Strasse', 'Emmentaler 2,59 x 2 5,18 A', 'Bulgur 0,99 x 2 1,98 A', 'zu zahlen 7,16', 'Bar 10,00'].join('\n');
    const contexts = [passage('Opening hours 9 to 20', '1', 'notes.pdf'), passage(RECEIPT, '2', 'aldi.jpg'), passage(lidl, '3', 'receipt_lidl_0203.jpg'), passage(RECEIPT, '4', 'aldi.jpg')];
    expect(receiptTotalAnswer({ question: 'How much did I pay?', contexts, history: [] })).to.deep.equal({
      text: '9,67 — “ZU ZAHLEN EUR 9,67” [1]\n7,16 — “zu zahlen 7,16” [2]\n\nSources: [1] aldi.jpg, page 1; [2] receipt_lidl_0203.jpg, page 1',
      usedRefs: ['2', '3'], markers: { 2: 1, 3: 2 }, quotes: { 2: 'ZU ZAHLEN EUR 9,67', 3: 'zu zahlen 7,16' },
    });
    expect(receiptTotalAnswer({ question: 'How much did I pay at Lidl?', contexts, history: [] })?.text, 'named by its file name').to.match(/^7,16 — “zu zahlen 7,16” \[1\]\n\nSources: \[1\] receipt_lidl_0203.jpg/);
    expect(receiptTotalAnswer({ question: 'What is the total on the receipt?', contexts, history: [] })?.text, 'not what I paid: the first').to.match(/^9,67 — /);
  });

  it('says a list of receipts may leave some out when it holds as many as it lists at most', () => {
    const receipts = (n: number) => Array.from({ length: n }, (_, i) => passage(RECEIPT, String(i + 1), `receipt_${i + 1}.jpg`));
    for (const question of ['How much did I pay?', 'What did I buy?']) {
      const text = (n: number) => receiptTotalAnswer({ question, contexts: receipts(n), history: [] })!.text;
      expect(text(6).split('\n').filter((line) => line.startsWith('“') || line.startsWith('9,67')), question).to.have.length(5);
      expect(text(6), question).to.include(`\n${MORE_RECEIPTS_NOTE}\n\nSources: [1] receipt_1.jpg`);
      expect(text(4), question).to.not.include(MORE_RECEIPTS_NOTE);
    }
  });

  it('answers what was bought at a shop with its receipt’s item lines up to the total', () => {
    for (const q of ['What did I buy at Aldi?', 'Which items did we get at Lidl?', 'Was habe ich bei Lidl gekauft?', 'What is on the Aldi receipt?', 'What’s in my Aldi receipt?'])
      expect(asksWhatWasBought(q), q).to.equal(true);
    for (const q of ['How much did I pay at Aldi?', 'What did the company buy back?', 'Where did I buy it?', 'What is on page 3?', 'Where is the receipt?'])
      expect(asksWhatWasBought(q), q).to.equal(false);
    const contexts = [passage('A willing buyer pays 1,00 2,00 3,00 a seller asks, in a long sentence of prose that is no receipt at all.', '1', 'guide.pdf'), passage(RECEIPT, '2', 'aldi.jpg')];
    expect(receiptTotalAnswer({ question: 'What did I buy at Aldi?', contexts, history: [] })).to.deep.equal({
      text: '“MILCH 1,5% 1,19 A … BROT 2,49 A … KAFFEE 5,99 B … ZU ZAHLEN EUR 9,67” [1]\n\nSources: [1] aldi.jpg, page 1',
      usedRefs: ['2'], markers: { 2: 1 }, quotes: { 2: 'MILCH 1,5% 1,19 A … BROT 2,49 A … KAFFEE 5,99 B … ZU ZAHLEN EUR 9,67' },
    });
    expect(receiptTotalAnswer({ question: 'What did I buy at Rewe?', contexts, history: [] }), 'a shop no receipt is from').to.equal(undefined);
  });

  it('answers what was bought from the passage of the receipt with the most item lines, not the first found', () => {
    // shared/data/images/receipt_aldi_02032020_19_02423.jpg's OCR as chunked: its VAT table and footer came first.
    const footer = passage(['MWST Netto MWST-BETRAG ~~ BRUTTO', 'C 7,004 17438 1,21 18,54', 'D 19,00% 4,78 all 5,69', 'ANZAHL ARTIKEL 19', 'Vielen Dank fur Ihren Einkauf!'].join('\n'), '1', 'receipt_aldi.jpg');
    const items = passage(['Pohlweg 110 33100 Paderborn', 'GUTFRIED GEFL./HAHN. FL. . 1,99 C', 'FERRERO KINDER RIEGEL 1,99 C', 'FRISCHKASE KREATION 0,99 C', 'BRIOCHE-KNOTEN 0,29 C'].join('\n'), '2', 'receipt_aldi.jpg');
    const answer = receiptTotalAnswer({ question: 'What did I buy at Aldi?', contexts: [footer, items], history: [] });
    expect(answer?.text).to.equal('“GUTFRIED GEFL./HAHN. FL. . 1,99 C … FERRERO KINDER RIEGEL 1,99 C … FRISCHKASE KREATION 0,99 C … BRIOCHE-KNOTEN 0,29 C” [1]\n\nSources: [1] receipt_aldi.jpg, page 1');
    expect(answer?.usedRefs).to.deep.equal(['2']);
    // Items in two passages, the total in the second: one quote, both passages cited under its number.
    const last = passage(['BRIOCHE-KNOTEN 0,29 C', 'FITNESSBROETCHEN 0,29 C', 'ZU ZAHLEN EURO 24,23', 'BARGELD 40,00'].join('\n'), '3', 'receipt_aldi.jpg');
    const both = receiptTotalAnswer({ question: 'What did I buy at Aldi?', contexts: [last, footer, items], history: [] })!;
    expect(both.text).to.equal('“GUTFRIED GEFL./HAHN. FL. . 1,99 C … FERRERO KINDER RIEGEL 1,99 C … FRISCHKASE KREATION 0,99 C … BRIOCHE-KNOTEN 0,29 C … FITNESSBROETCHEN 0,29 C … ZU ZAHLEN EURO 24,23” [1]\n\nSources: [1] receipt_aldi.jpg, page 1');
    expect(both.markers).to.deep.equal({ 3: 1, 2: 1 });
    // A VAT table's sum after the total ("Summe 0,47 6,69", shared/data/images/receipt_lidl_02032020_02_00716.jpg) is no item.
    const vat = passage(['MWST% MNST + Netto = Brufto', 'Summe 0,47 6,69 : ls'].join('\n'), '4', 'receipt_aldi.jpg');
    expect(receiptTotalAnswer({ question: 'What did I buy at Aldi?', contexts: [last, vat, footer, items], history: [] })!.text).to.equal(both.text);
    expect(both.quotes).to.deep.equal({
      2: 'GUTFRIED GEFL./HAHN. FL. . 1,99 C … FERRERO KINDER RIEGEL 1,99 C … FRISCHKASE KREATION 0,99 C … BRIOCHE-KNOTEN 0,29 C',
      3: 'BRIOCHE-KNOTEN 0,29 C … FITNESSBROETCHEN 0,29 C … ZU ZAHLEN EURO 24,23',
    });
  });

  it('answers an overview of a receipt ("What is in the Aldi receipt?") with its item lines, through the embedded answerer', async () => {
    const answerer = new ExtractiveAnswerer(undefined, [receiptsAnswerSkill]);
    const contexts = [passage(RECEIPT, '1', 'aldi.jpg'), passage('Opening hours 9 to 20. Thank you for shopping.', '2', 'aldi.jpg')];
    const answer = await answerer.answer({ question: 'What is in the Aldi receipt?', contexts, history: [], overview: true });
    expect(answer.text).to.equal('“MILCH 1,5% 1,19 A … BROT 2,49 A … KAFFEE 5,99 B … ZU ZAHLEN EUR 9,67” [1]\n\nSources: [1] aldi.jpg, page 1');
    const gist = await answerer.answer({ question: 'What is this document about?', contexts, history: [], overview: true });
    // Not what was bought alone: what the receipt is (its total, its first items), not its shop's address line.
    expect(gist.text).to.equal('A receipt, total 9,67 (“ZU ZAHLEN EUR 9,67”): “MILCH 1,5% 1,19 A … BROT 2,49 A … KAFFEE 5,99 B”.');
  });

  it('answers what I bought, no shop named, with each receipt’s item lines, and not with a table of another document', () => {
    const lidl = ['LDL Warburger Strasse', 'Emmentaler 2,59 x 2 5,18 A', 'Bulgur 0,99 x 2 1,98 A', 'zu zahlen 7,16', 'Bar 10,00'].join('\n');
    const table = ['Fees 2019 2020', 'Wire transfer 1,00 2,00', 'Card 3,00 4,00'].join('\n');
    const contexts = [passage(table, '1', 'fees.pdf'), passage(RECEIPT, '2', 'aldi.jpg'), passage(lidl, '3', 'receipt_lidl_0203.jpg')];
    for (const question of ['What did I buy?', 'Was habe ich gekauft?']) {
      expect(receiptTotalAnswer({ question, contexts, history: [] })?.text, question).to.equal(
        '“MILCH 1,5% 1,19 A … BROT 2,49 A … KAFFEE 5,99 B … ZU ZAHLEN EUR 9,67” [1]\n“Emmentaler 2,59 x 2 5,18 A … Bulgur 0,99 x 2 1,98 A … zu zahlen 7,16” [2]\n\n' +
        'Sources: [1] aldi.jpg, page 1; [2] receipt_lidl_0203.jpg, page 1',
      );
    }
    expect(receiptTotalAnswer({ question: 'What did I buy last week?', contexts, history: [] }), 'names something no shop is: left to the answerer').to.equal(undefined);
    // Each receipt's total line; the search within named documents is not searched when none is named (focusedOnly).
    expect(receiptsQueryPlanner.pinnedSearches('What did I buy?').map((s) => [s.perDocument ?? 1, s.focusedOnly ?? false])).to.deep.equal([[1, true], [5, false]]);
  });

  it('plans a search for each receipt’s total line when asked what I paid', () => {
    expect(receiptsQueryPlanner.pinnedSearches('How much did I pay?').map((s) => s.perDocument ?? 1)).to.deep.equal([1, 5]);
    expect(receiptsQueryPlanner.pinnedSearches('How much did 3M pay in dividends?').map((s) => s.perDocument ?? 1), 'not first person: focused only').to.deep.equal([1]);
  });
});
