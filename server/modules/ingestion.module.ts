import { ContainerModule } from 'inversify';
import type { DocChat } from '../../core/index.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';
import type { DocumentReader } from '../../core/ports/document-reader.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { JobHandler, JobQueue } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { ChildProcessDocumentReader } from '../../adapters/extraction/child-process-document-reader.js';
import { ChildProcessPageRenderer } from '../../adapters/extraction/child-process-page-renderer.js';
import { InProcessJobQueue } from '../../adapters/in-process-queue/in-process-job-queue.js';
import type { PostgresDatabase } from '../../adapters/postgres/database.js';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';

/** How long shutdown waits for running ingestions to stop before it goes on (they resume at the next start). */
const QUEUE_STOP_GRACE_MS = 5000;

/**
 * Text extraction (child processes) and the queue that runs ingest jobs fairly across users: in this process by
 * default, or in PostgreSQL (pg-boss) shared by every process with DATABASE_URL, where `serve` processes only enqueue.
 */
export async function ingestionModule(config: Config): Promise<ContainerModule> {
  const shared = config.records.kind === 'postgres' ? await import('../../adapters/pg-boss/index.js') : undefined;
  return new ContainerModule(({ bind }) => {
    bind<DocumentReader>(TOKENS.DocumentReader).toDynamicValue(() => new ChildProcessDocumentReader({ poolSize: config.extractionWorkers, niceness: config.extractionNiceness, ...config.extraction }));
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
      name: 'text extraction',
      close: () => ctx.get<ChildProcessDocumentReader>(TOKENS.DocumentReader).close(),
    }));
    // Its own child process, started at the first page asked for: viewing a page never waits behind an ingestion.
    bind(TOKENS.PageRenderer).toConstantValue(new ChildProcessPageRenderer());
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
      name: 'page images',
      close: () => ctx.get<ChildProcessPageRenderer>(TOKENS.PageRenderer).close(),
    }));
    // Resolved per job, not at bind time: the queue and the use cases need each other.
    const handlerOf = (ctx: { get<T>(token: symbol): T }): JobHandler => async (jobId, signal) => {
      // A metric must never keep a job from running: a failed look-up only loses this observation.
      await observeQueueWait(ctx, jobId).catch(() => undefined);
      return ctx.get<DocChat>(TOKENS.DocChat).runIngestion.execute(jobId, signal);
    };
    const limits = { concurrency: config.ingestConcurrency, perUser: config.ingestPerUserConcurrency };
    bind<JobQueue>(TOKENS.JobQueue).toDynamicValue((ctx) =>
      shared
        ? new shared.PgBossJobQueue(
            handlerOf(ctx),
            {
              ...limits,
              pool: ctx.get<PostgresDatabase>(TOKENS.PostgresDatabase).pool,
              work: config.role !== 'serve',
              pollIntervalMs: config.queue.pollIntervalMs,
              leaseSeconds: config.queue.leaseSeconds,
              // A dead worker's job is expired by maintenance and retried after the delay: both follow the lease, so
              // a short lease (tests, impatient deployments) brings the job back soon after it.
              maintenanceIntervalSeconds: Math.max(1, Math.min(15, Math.floor(config.queue.leaseSeconds / 2))),
              retryDelaySeconds: Math.max(1, Math.min(10, config.queue.leaseSeconds)),
            },
            ctx.get<Logger>(TOKENS.Logger),
          )
        : new InProcessJobQueue(handlerOf(ctx), limits, ctx.get<Logger>(TOKENS.Logger)),
    );
    // Registered after the reader: shutdown closes in reverse, so running jobs stop before the extraction processes
    // (and, registered after the records module, before the database).
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => {
      const queue = ctx.get<JobQueue & { start?(): Promise<void>; stop(): Promise<void> }>(TOKENS.JobQueue);
      return {
        name: 'ingest queue',
        init: queue.start ? () => queue.start!() : undefined,
        close: () => Promise.race([queue.stop(), new Promise<void>((resolve) => setTimeout(resolve, QUEUE_STOP_GRACE_MS).unref())]),
      };
    });
  });
}

/**
 * doc_chat_ingest_queue_wait_seconds: from the job's creation to a worker taking it up. Only for a job still queued:
 * one resumed or retried after a run has waited for other reasons (a restart, a backoff), not for the queue.
 */
async function observeQueueWait(ctx: { get<T>(token: symbol): T }, jobId: string): Promise<void> {
  const job = await ctx.get<IngestJobRepo>(TOKENS.IngestJobRepo).findById(jobId);
  if (job?.status !== 'queued' || job.attempts) return;
  const waited = ctx.get<Clock>(TOKENS.Clock).now().getTime() - Date.parse(job.createdAt);
  ctx.get<ServiceMetrics>(TOKENS.Metrics).queueWait.observe(Math.max(0, waited) / 1000);
}
