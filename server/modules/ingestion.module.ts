import { ContainerModule } from 'inversify';
import type { DocChat } from '../../core/index.js';
import type { DocumentReader } from '../../core/ports/document-reader.js';
import type { JobQueue } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { ChildProcessDocumentReader } from '../../adapters/extraction/child-process-document-reader.js';
import { InProcessJobQueue } from '../../adapters/in-process-queue/in-process-job-queue.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';

/** How long shutdown waits for running ingestions to stop before it goes on (they resume at the next start). */
const QUEUE_STOP_GRACE_MS = 5000;

/** Text extraction (child processes) and the queue that runs ingest jobs, fairly across users. */
export async function ingestionModule(config: Config): Promise<ContainerModule> {
  return new ContainerModule(({ bind }) => {
    bind<DocumentReader>(TOKENS.DocumentReader).toDynamicValue(() => new ChildProcessDocumentReader({ poolSize: config.extractionWorkers }));
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
      name: 'text extraction',
      close: () => ctx.get<ChildProcessDocumentReader>(TOKENS.DocumentReader).close(),
    }));
    bind<JobQueue>(TOKENS.JobQueue).toDynamicValue(
      (ctx) =>
        new InProcessJobQueue(
          // Resolved per job, not at bind time: the queue and the use cases need each other.
          (jobId, signal) => ctx.get<DocChat>(TOKENS.DocChat).runIngestion.execute(jobId, signal),
          { concurrency: config.ingestConcurrency, perUser: config.ingestPerUserConcurrency },
          ctx.get<Logger>(TOKENS.Logger),
        ),
    );
    // Registered after the reader: shutdown closes in reverse, so running jobs stop before the extraction processes.
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
      name: 'ingest queue',
      close: () => {
        const queue = ctx.get<InProcessJobQueue>(TOKENS.JobQueue);
        return Promise.race([queue.stop(), new Promise<void>((resolve) => setTimeout(resolve, QUEUE_STOP_GRACE_MS).unref())]);
      },
    }));
  });
}
