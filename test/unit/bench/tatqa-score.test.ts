import { expect } from 'chai';
import { answerLead, carriesGold, carriesSpanFigure, carriesValue, firstSentenceAsBefore, numbersIn, spanFigure, spanNumber, withoutCandidates } from '../../../bench/tatqa-score.js';

describe('TAT-QA scorer (bench/tatqa-score.ts)', () => {
  describe('numbers read by value', () => {
    it('reads separators, decimals and scale words, and marks bare years', () => {
      const [a, b, c, d] = numbersIn('$ 1,452.4 and (12.6) and $1.50 billion in 2019');
      expect(a).to.include({ value: 1452.4, decimals: 1, significant: 5, unit: 1, isYear: false });
      expect(b).to.include({ value: 12.6, decimals: 1 });
      expect(c).to.include({ value: 1.5e9, decimals: 2, unit: 1e9 });
      expect(d).to.include({ value: 2019, isYear: true });
    });

    it('skips digits inside a word ("Q4", "FY19")', () => {
      expect(numbersIn('Q4 FY19 sales were 7').map((n) => n.value)).to.deep.equal([7]);
    });

    it('accepts thousands separators, currency and parentheses negatives (sign ignored)', () => {
      expect(carriesValue('Other fell by $(12.6) million', -12.6, 'million')).to.equal(true);
      expect(carriesValue('The change was 16,458', -16458, 'thousand')).to.equal(true);
      expect(carriesValue('a decrease of 12.7', -12.6, 'million')).to.equal(false);
    });

    it('rounds at the gold decimals, at least 2: 22.2222 answers 22.22, 172.4 does not answer 172', () => {
      expect(carriesValue('up 22.2222%', -22.22, 'percent')).to.equal(true);
      expect(carriesValue('up 22.23%', -22.22, 'percent')).to.equal(false);
      expect(carriesValue('an average of 172.4', 172, 'million')).to.equal(false);
      expect(carriesValue('an average of 172', 172, 'million')).to.equal(true);
      expect(carriesValue('an average of 172.00', 172, 'million')).to.equal(true);
    });

    it('accepts a less precise answer the gold rounds to, when it keeps enough digits', () => {
      expect(carriesValue('up 22.2%', 22.22, 'percent')).to.equal(true);
      expect(carriesValue('about 6.7%', 6.67, 'percent')).to.equal(true);
      expect(carriesValue('1,497', 1496.5, 'million')).to.equal(true);
      expect(carriesValue('about 7%', 6.67, 'percent')).to.equal(false);
      expect(carriesValue('about 22%', 22.22, 'percent')).to.equal(false);
    });

    it('moves a number with a scale word into the gold scale', () => {
      expect(carriesValue('total sales of $1.50 billion', 1496.5, 'million')).to.equal(true);
      expect(carriesValue('total sales of $1,496.5 million', 1496.5, 'million')).to.equal(true);
      expect(carriesValue('total sales of $1.5 billion', 1496.5, 'million')).to.equal(true); // two digits and a decimal
      expect(carriesValue('total sales of $1 billion', 1496.5, 'million')).to.equal(false); // one digit: too coarse
      expect(carriesValue('12 million', 12, 'thousand')).to.equal(false);
    });

    it('ignores years unless the gold is one', () => {
      expect(carriesValue('in 2019 and 2018', 2019)).to.equal(true);
      expect(carriesValue('in 2019', 2019.5)).to.equal(false);
    });
  });

  describe('gold answers by kind', () => {
    it('span: normalised containment, or the number by value', () => {
      const gold = { answer: ['our allowable incurred costs plus a profit'], answer_type: 'span' as const, scale: '' };
      expect(carriesGold('“On a cost-plus type contract, we are paid our allowable incurred costs plus a profit which…” [1]', gold)).to.equal(true);
      expect(carriesGold('“we are paid our incurred costs” [1]', gold)).to.equal(false);
      expect(carriesGold('Total sales were $ 1,496.5', { answer: ['$1,496.5'], answer_type: 'span', scale: 'million' })).to.equal(true);
      expect(spanNumber('(12.6)')).to.equal(12.6);
      expect(spanNumber('fixed-price type')).to.equal(undefined);
    });

    it('span: a figure printed with its unit ("$16.9 million") is read by value at its own precision', () => {
      expect(spanFigure('$16.9 million')).to.deep.equal({ value: 16.9, decimals: 1, factor: 1e6 });
      expect(spanFigure('3.6%')).to.deep.equal({ value: 3.6, decimals: 1 });
      expect(spanFigure('29 per cent')).to.deep.equal({ value: 29, decimals: 0 });
      expect(spanFigure('a total of 866.6 RSUs')).to.equal(undefined);
      expect(carriesSpanFigure('Change in Interest income: $16,901 thousand', '$16.9 million', 'thousand')).to.equal(true);
      expect(carriesSpanFigure('Net deferred tax liability, 2019: −2,780', '$2.8 billion', 'million')).to.equal(true);
      expect(carriesSpanFigure('Percentage change: 13.19%', '13.2', 'percent')).to.equal(true);
      expect(carriesSpanFigure('Percentage change: 13.26%', '13.2', 'percent')).to.equal(false);
      expect(carriesSpanFigure('Change: $17 million', '$16.9 million', 'million')).to.equal(false); // too coarse
      expect(carriesSpanFigure('Change: $16,949 thousand', '$16.9 million', 'thousand')).to.equal(true);
      expect(carriesSpanFigure('in 2019: 16.9', '$16.9 million', 'thousand')).to.equal(false); // 16.9 thousand
      const gold = { answer: ['$16.9 million'], answer_type: 'span' as const, scale: 'million' };
      expect(carriesGold('Change in Interest income: $16,901 thousand', gold)).to.equal(true);
      expect(carriesGold('Change in Interest income: $16,901 thousand', gold, true)).to.equal(false); // as scored before
    });

    it('multi-span: every span must be there', () => {
      const gold = { answer: ['fixed-price type', 'cost-plus type', 'time-and-material type'], answer_type: 'multi-span' as const, scale: '' };
      expect(carriesGold('Fixed-price type, cost-plus type and time and material type contracts.', gold)).to.equal(true);
      expect(carriesGold('Fixed-price type and cost-plus type contracts.', gold)).to.equal(false);
    });

    it('arithmetic and count: by value; a count also as a word', () => {
      expect(carriesGold('The change was -12.6 million.', { answer: -12.6, answer_type: 'arithmetic', scale: 'million' })).to.equal(true);
      expect(carriesGold('Four assumptions are used.', { answer: '4', answer_type: 'count', scale: '' })).to.equal(true);
      expect(carriesGold('Three assumptions are used.', { answer: '4', answer_type: 'count', scale: '' })).to.equal(false);
      expect(carriesGold('2 years: “Total services 5,753 5,268 4,781” [1]', { answer: '2', answer_type: 'count', scale: '' })).to.equal(true);
    });

    it('does not take a count from inside a quote (a footnote mark, a table cell)', () => {
      expect(carriesGold('“Stock-based compensation 5,589 1,765 | Other(1) 1,342” [1]', { answer: '1', answer_type: 'count', scale: '' })).to.equal(false);
    });

    it('does not count the source list or the [n] markers as the answer', () => {
      const gold = { answer: 2, answer_type: 'arithmetic' as const, scale: '' };
      expect(carriesGold('“Nothing here.” [2]\n\nSources: [1] report-2.pdf, page 2', gold)).to.equal(false);
    });
  });

  describe('a comparison', () => {
    it('is scored by its winner alone, not the candidates it lists after it', () => {
      const answer = '2018: Total emissions, the largest. (2019: 4,785.7; 2018: 5,087.6)\n\n“2019 | 2018 | Total emissions 4,785.7 5,087.6” [1]';
      expect(withoutCandidates(answer)).to.equal('2018: Total emissions, the largest.');
      expect(withoutCandidates('2019: $533 — “Free Cash Flow $497 $533” [1]')).to.equal('2019: $533 — “Free Cash Flow $497 $533” [1]');
    });
  });

  describe('the lead', () => {
    it('is the first quote of a quoted answer', () => {
      expect(answerLead('“Total sales were $1,496.5.” [1] “Other was 44.1.” [2]\n\nSources: [1] a.pdf, page 1')).to.equal('Total sales were $1,496.5.');
    });

    it('is the first sentence of a written answer, decimals kept', () => {
      expect(answerLead('The change was 12.6 million. It fell from 56.7 to 44.1.\n\nSources: [1] a.pdf, page 1')).to.equal('The change was 12.6 million.');
      // "NO." in capitals, as column headings print it, abbreviates "number" (until stop 57 it ended the sentence).
      const rights = 'Outstanding at end of period, 2019 NO. OF RIGHTS: 13,477,758\n\n“2019 NO. OF RIGHTS | 2018 NO. OF RIGHTS” [1]';
      expect(answerLead(rights)).to.equal('Outstanding at end of period, 2019 NO. OF RIGHTS: 13,477,758');
      expect(answerLead(rights, undefined, { asStop57: true })).to.equal('Outstanding at end of period, 2019 NO.');
    });

    it('is what stands before the first quote, when something does', () => {
      expect(answerLead('2018: $533 — “Free Cash Flow $497 $533 $308” [1]\n\nSources: [1] a.pdf, page 1')).to.equal('2018: $533');
    });

    it('is the first table row of a quote that opens with a table', () => {
      expect(answerLead('“2019 2018 … Revenue $3,037 $2,210 | Royalties 2,907 3,086” [1]')).to.equal('2019 2018 … Revenue $3,037 $2,210');
      // A header read by columns joins its cells by " | " too: the lead reads on to the row after it.
      const columns = '“2019 | 2018 | Change % … Revenue $3,037 $2,210 45% | Royalties 2,907 3,086” [1]';
      expect(answerLead(columns)).to.equal('2019 | 2018 | Change % … Revenue $3,037 $2,210 45%');
      expect(answerLead(columns, undefined, { asStop57: true })).to.equal('2019');
      // A quotation mark inside the quote does not end it (it did until stop 55).
      const nested = '“In December 2017 the Tax Act (the “Act”) reduced the rate from 35% to 21%. It also …” [1]\n\nSources: [1] a.pdf, page 1';
      expect(answerLead(nested)).to.equal('In December 2017 the Tax Act (the “Act”) reduced the rate from 35% to 21%.');
      expect(answerLead(nested, undefined, { asStop54: true })).to.equal('In December 2017 the Tax Act (the “Act');
    });

    it('is nothing when the answer says not found: its closest passage is not an answer', () => {
      const answer = 'I could not find this in your documents. None of the passages I found mentions Foo.\n\nClosest found: “Bar was 3.” [1]';
      expect(answerLead(answer)).to.equal('');
    });

    it('runs past the stop of an abbreviation or of a list item’s number, not past a sentence’s end', () => {
      expect(answerLead('Free cash flow (non-U.S. GAAP measure), 2018: $533 million\n\n“…” [1]')).to.equal('Free cash flow (non-U.S. GAAP measure), 2018: $533 million');
      expect(answerLead('“1. Order intake represents commitments from customers. Revenue rose.” [1]')).to.equal('1. Order intake represents commitments from customers.');
      expect(answerLead('“Acme Inc. sold the plant. It closed in 2019.” [1]')).to.equal('Acme Inc. sold the plant.');
      expect(answerLead('“1. Order intake represents commitments. Revenue rose.” [1]', firstSentenceAsBefore)).to.equal('1.');
    });

    it('is the direct line, not what was also found', () => {
      expect(answerLead('“Bar was 3.” [1]\n\nAlso found: “Baz was 4.” [2]\n\nSources: [1] a.pdf, page 1; [2] b.pdf, page 2')).to.equal('Bar was 3.');
    });
  });
});
