import { expect } from 'chai';
import type { DocumentClassifier } from '../../core/ports/document-classifier.js';

/**
 * What every DocumentClassifier must do: name its kinds, 'other' among them; tell one of them for any pages, none
 * at all included, without throwing; and keep one document's tally apart from another's, each telling what its own
 * pages tell whatever was added to the other.
 */
export function documentClassifierContract(name: string, makeClassifier: () => DocumentClassifier): void {
  describe(`DocumentClassifier contract: ${name}`, () => {
    const pages = [
      'An ordinary page of prose, as a report or a story is written, in sentences of some length that run on.',
      ['SHOP', 'MILK 1,19', 'BREAD 2,49', 'TOTAL 3,68', 'CASH 5,00', 'CHANGE 1,32'].join('\n'),
      '',
      '☐ ☒ ____ 12,00 2019 2020 Dear Sir, Sincerely',
    ];

    it('names its kinds, "other" among them', () => {
      const { kinds } = makeClassifier();
      expect(kinds).to.include('other');
      expect(new Set(kinds).size).to.equal(kinds.length);
    });

    it('tells one of its kinds for any pages, and for none', () => {
      const classifier = makeClassifier();
      expect(classifier.kinds).to.include(classifier.start().kind());
      for (const page of pages) {
        const tally = classifier.start();
        tally.addPage(page);
        expect(classifier.kinds).to.include(tally.kind());
      }
    });

    it('keeps each document’s tally its own', () => {
      const classifier = makeClassifier();
      const told = pages.map((page) => {
        const tally = classifier.start();
        tally.addPage(page);
        return tally.kind();
      });
      const first = classifier.start();
      const second = classifier.start();
      first.addPage(pages[0]);
      for (const page of pages) second.addPage(page);
      expect(first.kind()).to.equal(told[0]);
      const again = classifier.start();
      again.addPage(pages[1]);
      expect(again.kind()).to.equal(told[1]);
    });
  });
}
