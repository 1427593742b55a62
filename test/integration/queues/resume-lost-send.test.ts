import { expect } from 'chai';
import { InProcessJobQueue } from '../../../adapters/in-process-queue/in-process-job-queue.js';
import { KyselyIngestJobRepo } from '../../../adapters/kysely/kysely-ingest-job-repo.js';
import { PostgresJobQueue } from '../../../adapters/postgres-queue/postgres-job-queue.js';
import { openPostgresDatabase } from '../../../adapters/postgres/database.js';
import { openSqliteDatabase } from '../../../adapters/sqlite/database.js';
import type { IngestJobRepo } from '../../../core/ports/ingest-job-repo.js';
import type { JobHandler, JobQueue } from '../../../core/ports/job-queue.js';
import { ResumeIngestion } from '../../../core/use-cases/resume-ingestion.js';
import { ManualClock, RecordingLogger } from '../../fakes/fixed-clock-and-ids.js';
import { describeWithPostgres, sharedPostgresCluster } from '../../support/postgres-cluster.js';

const LEASE_MS = 60_000;
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await tick(10);
  }
}

interface Stack {
  jobs: IngestJobRepo;
  queue: JobQueue;
  logger: RecordingLogger;
  /** Enqueues the job so that the send is lost, leaving its record `queued` with no queue entry. */
  enqueueLost(job: { id: string; userId: string }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A job whose send to the queue was lost stays `queued` and nobody runs it; the periodic lease check
 * (ResumeIngestion with staleAfterMs) sends it again once it is older than the lease, and sending it again while it
 * waits or runs does not run it twice.
 */
function lostSendSuite(name: string, open: (run: JobHandler) => Promise<Stack>): void {
  describe(`ResumeIngestion with ${name}`, function () {
    this.timeout(30_000);
    let stack: Stack | undefined;
    afterEach(async () => {
      await stack?.close();
      stack = undefined;
    });

    it('sends a queued job again once it is older than the lease, and it runs once', async () => {
      const clock = new ManualClock();
      const runs: string[] = [];
      let release!: () => void;
      const blocker = new Promise<void>((resolve) => (release = resolve));
      stack = await open(async (id) => {
        runs.push(id);
        await blocker;
        await stack!.jobs.update(id, { status: 'completed', updatedAt: clock.now().toISOString() });
      });
      const resume = new ResumeIngestion({ jobs: stack.jobs, queue: stack.queue, clock, logger: stack.logger });
      const at = clock.now().toISOString();
      const job = { id: 'job-lost', userId: 'u1', sessionId: 's1', key: 'k1', filename: 'a.pdf', contentType: 'application/pdf', tags: {} };
      await stack.jobs.create({ ...job, status: 'queued', createdAt: at, updatedAt: at });
      await stack.enqueueLost(job);

      expect(await resume.execute({ staleAfterMs: LEASE_MS })).to.equal(0); // younger than the lease: it may still come
      await tick(200);
      expect(runs).to.deep.equal([]);

      clock.advance(LEASE_MS + 1);
      expect(await resume.execute({ staleAfterMs: LEASE_MS })).to.equal(1);
      await until(() => runs.length === 1, 'the job sent again to run');
      // The next checks find it still queued-or-running: sent again, it must not run a second time.
      await resume.execute({ staleAfterMs: LEASE_MS });
      await resume.execute({ staleAfterMs: LEASE_MS });
      await tick(200);
      release();
      await until(async () => (await stack!.jobs.findById(job.id))?.status === 'completed', 'the job to complete');
      clock.advance(LEASE_MS + 1);
      expect(await resume.execute({ staleAfterMs: LEASE_MS })).to.equal(0);
      await tick(200);
      expect(runs).to.deep.equal(['job-lost']);
      expect(stack.logger.lines.some((line) => line.message === 'resuming unfinished ingest jobs' && line.fields?.queued === 1)).to.equal(true);
    });
  });
}

lostSendSuite('the in-process queue on SQLite', async (run) => {
  const database = openSqliteDatabase(':memory:');
  const logger = new RecordingLogger();
  const queue = new InProcessJobQueue(run, { concurrency: 1 }, logger);
  return {
    jobs: new KyselyIngestJobRepo(database.db),
    queue,
    logger,
    // In one process a send cannot fail; what it would leave is a record nobody handed to the queue.
    enqueueLost: async () => {},
    close: async () => {
      await queue.stop();
      await database.close();
    },
  };
});

describeWithPostgres('ResumeIngestion with the PostgreSQL queue', () => {
  lostSendSuite('the PostgreSQL table queue', async (run) => {
    const cluster = sharedPostgresCluster();
    const url = await cluster.createDatabase('lost_send');
    const database = await openPostgresDatabase(url);
    const logger = new RecordingLogger();
    const queue = new PostgresJobQueue(run, { pool: database.pool, concurrency: 1, pollIntervalMs: 20 }, logger);
    await queue.start();
    return {
      jobs: new KyselyIngestJobRepo(database.db),
      queue,
      logger,
      // The database refuses the queue's insert (as when it is unreachable for a moment): the queue logs and goes on.
      enqueueLost: async (job) => {
        await database.pool.query(`
          CREATE FUNCTION refuse_send() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
          CREATE TRIGGER refuse_send BEFORE INSERT ON doc_chat_queue.job FOR EACH ROW EXECUTE FUNCTION refuse_send();`);
        queue.enqueue(job);
        await until(() => logger.lines.some((line) => line.message === 'could not enqueue the job in the queue table'), 'the failed send');
        await database.pool.query('DROP TRIGGER refuse_send ON doc_chat_queue.job; DROP FUNCTION refuse_send();');
      },
      close: async () => {
        await queue.stop();
        await database.close();
        await cluster.dropDatabase(url);
      },
    };
  });
});
