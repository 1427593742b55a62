import { expect } from 'chai';
import { CollectAfterJobs } from '../../../server/modules/collect-after-jobs.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CollectAfterJobs (one collection once ingestion is quiet)', () => {
  it('collects once after the last of overlapping jobs, when no job started during the quiet time', async () => {
    let collected = 0;
    const collector = new CollectAfterJobs(() => collected++, undefined, 60);
    let finishFirst!: () => void;
    const first = collector.around(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const second = collector.around(() => sleep(10));
    await second;
    await sleep(100);
    expect(collected, 'collected while a job still ran').to.equal(0);
    finishFirst();
    await first;
    await sleep(30);
    await collector.around(() => sleep(5)); // starts within the quiet time: postpones the collection
    await sleep(30);
    expect(collected, 'collected before the quiet time after the last job').to.equal(0);
    await sleep(80);
    expect([collected, collector.collections]).to.deep.equal([1, 1]);
  });

  it('passes the job’s result and failure through, and collects after a failed job too', async () => {
    let collected = 0;
    const collector = new CollectAfterJobs(() => collected++, undefined, 20);
    expect(await collector.around(async () => 42)).to.equal(42);
    let thrown: unknown;
    await collector.around(async () => Promise.reject(new Error('unreadable'))).catch((error) => (thrown = error));
    expect((thrown as Error).message).to.equal('unreadable');
    await sleep(60);
    expect(collected).to.equal(1);
  });

  it('does nothing without a collector (Node started without --expose-gc)', async () => {
    const collector = new CollectAfterJobs(undefined, undefined, 10);
    await collector.around(async () => undefined);
    await sleep(30);
    expect(collector.collections).to.equal(0);
  });
});
