import { expect } from 'chai';
import { InProcessJobQueue } from '../../adapters/in-process-queue/in-process-job-queue.js';
import { JobStoppedError } from '../../core/domain/errors.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { jobQueueContract } from './job-queue.contract.js';

jobQueueContract('InProcessJobQueue', (run, limits) => {
  const queue = new InProcessJobQueue(run, limits, new RecordingLogger());
  return { queue, close: () => queue.stop() };
});

describe('InProcessJobQueue', () => {
  it('on stop, drops waiting jobs and aborts running ones as a shutdown, then resolves once they have stopped', async () => {
    const started: string[] = [];
    let reason: unknown;
    const queue = new InProcessJobQueue(
      async (id, signal) => {
        started.push(id);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        reason = signal.reason;
      },
      { concurrency: 1 },
      new RecordingLogger(),
    );
    queue.enqueue({ id: 'job-1', userId: 'u' });
    queue.enqueue({ id: 'job-2', userId: 'u' });
    await queue.stop();
    expect(started).to.deep.equal(['job-1']);
    expect(reason).to.be.instanceOf(JobStoppedError).and.have.property('why', 'shutdown');
    queue.enqueue({ id: 'job-3', userId: 'u' }); // a stopped queue takes nothing
    await queue.whenIdle();
    expect(started).to.deep.equal(['job-1']);
  });

  it('refuses limits that are not positive integers', () => {
    const run = async () => {};
    expect(() => new InProcessJobQueue(run, { concurrency: 0 }, new RecordingLogger())).to.throw(RangeError);
    expect(() => new InProcessJobQueue(run, { concurrency: 2, perUser: 1.5 }, new RecordingLogger())).to.throw(RangeError);
  });
});
