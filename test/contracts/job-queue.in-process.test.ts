import { InProcessJobQueue } from '../../adapters/in-process-queue/in-process-job-queue.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { jobQueueContract } from './job-queue.contract.js';

jobQueueContract('InProcessJobQueue', (run, concurrency) => {
  const queue = new InProcessJobQueue(run, concurrency, new RecordingLogger());
  return { queue, close: () => queue.stop() };
});
