import { expect } from 'chai';
import { readTatqa, TATQA_ANSWER_TYPES, TATQA_PARTS, tatqaPart, tatqaPartOf } from '../../../bench/tatqa-data.js';
import { describeWithCorpus } from '../../support/corpus.js';

describe('TAT-QA split rule (bench/tatqa-data.ts)', () => {
  it('puts a context by its uid alone, the same on every call', () => {
    const uids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const parts = uids.map(tatqaPartOf);
    expect(uids.map(tatqaPartOf)).to.deep.equal(parts);
    // Both parts are used, roughly half each (a hash, not a pattern of the uids).
    const validation = parts.filter((p) => p === 'validation').length;
    expect(validation).to.be.within(70, 130);
  });
});

describeWithCorpus('TAT-QA split of the dev set (bench/tatqa-data.ts)', () => {
  it('splits the 278 contexts into two disjoint parts that together cover them all, about half each', () => {
    const contexts = readTatqa();
    expect(contexts).to.have.length(278);
    const [dev, validation] = TATQA_PARTS.map((part) => tatqaPart(part, contexts).map((c) => c.table.uid));
    const overlap = dev.filter((uid) => validation.includes(uid));
    expect(overlap).to.deep.equal([]);
    expect(new Set([...dev, ...validation])).to.deep.equal(new Set(contexts.map((c) => c.table.uid)));
    expect(dev.length).to.be.within(110, 168);
  });

  it('does not depend on file order: the reversed file splits the same', () => {
    const contexts = readTatqa();
    const reversed = [...contexts].reverse();
    for (const part of TATQA_PARTS) {
      expect(tatqaPart(part, reversed).map((c) => c.table.uid).sort()).to.deep.equal(tatqaPart(part, contexts).map((c) => c.table.uid).sort());
    }
  });

  it('gives each part questions of every kind', () => {
    for (const part of TATQA_PARTS) {
      const kinds = new Set(tatqaPart(part).flatMap((c) => c.questions.map((q) => q.answer_type)));
      expect([...kinds].sort()).to.deep.equal([...TATQA_ANSWER_TYPES].sort());
    }
  });
});
