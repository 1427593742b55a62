import { ContainerModule, type ResolutionContext } from 'inversify';
import * as v from 'valibot';
import type { DocChat } from '../../core/index.js';
import type { Clock } from '../../core/ports/clock-and-ids.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { JobHandler, JobQueue } from '../../core/ports/job-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { InProcessJobQueue } from '../../adapters/in-process-queue/in-process-job-queue.js';
import type { PostgresDatabase } from '../../adapters/postgres/database.js';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import type { Config } from '../config.js';
import { ConfigError, setting } from '../config/variables.js';
import { positiveInt } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import { CollectAfterJobs, exposedGc } from './collect-after-jobs.js';
import type { Lifecycle, QueueRunner } from './lifecycle.js';
import type { ServiceModule } from './module.js';
import { S3_ENDPOINT } from './files.module.js';
import { DATABASE_URL } from './records.module.js';

const ROLE = setting('ROLE', v.picklist(['all', 'serve', 'worker'], 'must be all, serve or worker'), 'all',
  'What this process does: serve (HTTP, enqueues), worker (runs ingest jobs, no HTTP) or all; serve and worker need DATABASE_URL and S3_ENDPOINT');
export const INGEST_CONCURRENCY = setting('INGEST_CONCURRENCY', positiveInt(16), 2, 'Documents this process ingests at once (as many more may be finishing: their last pages read, then indexed)');
const INGEST_PER_USER_CONCURRENCY = setting('INGEST_PER_USER_CONCURRENCY', positiveInt(16), 1, 'Documents of one user ingested at once (users take turns for the rest; as many more may be finishing)');
const QUEUE_POLL_INTERVAL_MS = setting('QUEUE_POLL_INTERVAL_MS', positiveInt(60_000), 1000, 'How often a worker looks for jobs in the shared queue (PostgreSQL)');
const QUEUE_LEASE_SECONDS = setting('QUEUE_LEASE_SECONDS', positiveInt(3600), 60, 'A worker\'s lease on a running job in the shared queue; a dead worker\'s job returns after it');

/** How long shutdown waits for running ingestions to stop before it goes on (they resume at the next start). */
const QUEUE_STOP_GRACE_MS = 5000;

export interface IngestionSection {
  /**
   * What this process does (ROLE): `serve` answers HTTP and enqueues ingest jobs, `worker` runs them (no HTTP), `all`
   * both. `serve` and `worker` need DATABASE_URL: their queue is the one in PostgreSQL that every process shares.
   */
  role: 'all' | 'serve' | 'worker';
  /** The shared queue's timing (PostgreSQL mode): how often a worker looks for jobs, and its lease on a running one. */
  queue: { pollIntervalMs: number; leaseSeconds: number };
  /** Documents processed at once; extraction itself runs in `extractionWorkers` child processes. */
  ingestConcurrency: number;
  /** Documents of one user processed at once (users take turns for the rest). */
  ingestPerUserConcurrency: number;
}

/**
 * The queue that runs ingest jobs fairly across users: in this process by default, or in a PostgreSQL table shared
 * by every process with DATABASE_URL, where `serve` processes only enqueue.
 */
export const ingestionModule: ServiceModule<IngestionSection> = {
  family: 'ingestion',
  variables: [ROLE, INGEST_CONCURRENCY, INGEST_PER_USER_CONCURRENCY, QUEUE_POLL_INTERVAL_MS, QUEUE_LEASE_SECONDS],
  configure(env): IngestionSection {
    const shared = env.isSet(DATABASE_URL);
    if (!shared) env.forbidWithout([QUEUE_POLL_INTERVAL_MS, QUEUE_LEASE_SECONDS], DATABASE_URL);
    const role = env.read(ROLE);
    if (role !== 'all' && !shared) throw new ConfigError('ROLE', `"${role}" needs DATABASE_URL: the processes share their ingest queue in PostgreSQL`);
    // A worker reads the files a serve instance received: they must be in shared storage, not on one process's disk.
    if (role !== 'all' && !env.isSet(S3_ENDPOINT)) {
      throw new ConfigError('S3_ENDPOINT', `must be set with ROLE=${role}: workers read uploaded files from shared object storage`);
    }
    return {
      role,
      queue: { pollIntervalMs: env.read(QUEUE_POLL_INTERVAL_MS), leaseSeconds: env.read(QUEUE_LEASE_SECONDS) },
      ingestConcurrency: env.read(INGEST_CONCURRENCY),
      ingestPerUserConcurrency: env.read(INGEST_PER_USER_CONCURRENCY),
    };
  },
  async bindings(config) {
    const limits = { concurrency: config.ingestConcurrency, perUser: config.ingestPerUserConcurrency };
    let runner: (ctx: ResolutionContext) => JobQueue & QueueRunner;
    if (config.records.kind === 'postgres') {
      const { PostgresJobQueue } = await import('../../adapters/postgres-queue/index.js');
      runner = (ctx) => new PostgresJobQueue(handlerOf(ctx, new CollectAfterJobs(exposedGc(), ctx.get<Logger>(TOKENS.Logger))), { ...limits, ...sharedQueueOptions(config), pool: ctx.get<PostgresDatabase>(TOKENS.PostgresDatabase).pool }, ctx.get<Logger>(TOKENS.Logger));
    } else {
      runner = (ctx) => new InProcessJobQueue(handlerOf(ctx, new CollectAfterJobs(exposedGc(), ctx.get<Logger>(TOKENS.Logger))), limits, ctx.get<Logger>(TOKENS.Logger));
    }
    return new ContainerModule(({ bind }) => {
      bind<JobQueue & QueueRunner>(TOKENS.QueueRunner).toDynamicValue(runner);
      bind<JobQueue>(TOKENS.JobQueue).toDynamicValue((ctx) => ctx.get<JobQueue & QueueRunner>(TOKENS.QueueRunner));
      // Registered after the extraction family: shutdown closes in reverse, so running jobs stop before the
      // extraction processes (and, registered after the records family, before the database).
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => {
        const queue = ctx.get<QueueRunner>(TOKENS.QueueRunner);
        return {
          name: 'ingest queue',
          init: () => queue.start(),
          close: () => Promise.race([queue.stop(), new Promise<void>((resolve) => setTimeout(resolve, QUEUE_STOP_GRACE_MS).unref())]),
        };
      });
    });
  },
  started: (config) => ({ role: config.role }),
};

function sharedQueueOptions(config: Config) {
  return {
    work: config.role !== 'serve',
    pollIntervalMs: config.queue.pollIntervalMs,
    leaseSeconds: config.queue.leaseSeconds,
    // A dead worker's job is expired by maintenance and retried after the delay: both follow the lease, so a short
    // lease (tests, impatient deployments) brings the job back soon after it.
    maintenanceIntervalSeconds: Math.max(1, Math.min(15, Math.floor(config.queue.leaseSeconds / 2))),
    retryDelaySeconds: Math.max(1, Math.min(10, config.queue.leaseSeconds)),
  };
}

/**
 * Resolved per job, not at bind time: the queue and the use cases need each other. Jobs run inside `collector`, which
 * collects the garbage they leave once ingestion has been quiet for a while.
 */
function handlerOf(ctx: ResolutionContext, collector: CollectAfterJobs): JobHandler {
  return (jobId, signal, finishing) =>
    collector.around(async () => {
      // A metric must never keep a job from running: a failed look-up only loses this observation.
      await observeQueueWait(ctx, jobId).catch(() => undefined);
      return ctx.get<DocChat>(TOKENS.DocChat).runIngestion.execute(jobId, signal, finishing);
    });
}

/**
 * doc_chat_ingest_queue_wait_seconds: from the job's creation to a worker taking it up. Only for a job still queued:
 * one resumed or retried after a run has waited for other reasons (a restart, a backoff), not for the queue.
 */
async function observeQueueWait(ctx: ResolutionContext, jobId: string): Promise<void> {
  const job = await ctx.get<IngestJobRepo>(TOKENS.IngestJobRepo).findById(jobId);
  if (job?.status !== 'queued' || job.attempts) return;
  const waited = ctx.get<Clock>(TOKENS.Clock).now().getTime() - Date.parse(job.createdAt);
  ctx.get<ServiceMetrics>(TOKENS.Metrics).queueWait.observe(Math.max(0, waited) / 1000);
}
