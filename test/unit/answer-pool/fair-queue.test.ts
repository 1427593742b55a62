import { expect } from 'chai';
import { FairQueue } from '../../../adapters/answer-pool/fair-queue.js';

const drain = <T>(queue: FairQueue<T>) => Array.from({ length: queue.length }, () => queue.shift());

describe('FairQueue (waiting pool tasks taken in turns between users)', () => {
  it('takes one item of each group in turn, in each group first in first out', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('b', 'b2');
    expect(queue.length).to.equal(6);
    expect(drain(queue)).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.shift()).to.equal(undefined);
  });

  it('a group that comes back after running dry waits for its turn behind the groups already waiting', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('b', 'b2');
    expect(queue.shift()).to.equal('a1');
    queue.push('a', 'a2');
    expect(drain(queue)).to.deep.equal(['b1', 'a2', 'b2']);
  });

  it('puts items taken back in front (their group next), and removes an item wherever it waits', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.pushFront('b', ['b0']);
    expect(queue.remove('a', 'a1')).to.equal(true);
    expect(queue.remove('a', 'a1')).to.equal(false);
    queue.push('c', 'c1');
    expect(drain(queue)).to.deep.equal(['b0', 'c1', 'b1']);
    queue.push('d', 'd1');
    expect(queue.drain()).to.deep.equal(['d1']);
    expect(queue.length).to.equal(0);
  });
});
