import pg from 'pg';
import { PgBossJobQueue } from '../../adapters/pg-boss/pg-boss-job-queue.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { jobQueueContract } from './job-queue.contract.js';

describeWithPostgres('JobQueue on pg-boss', () => {
  let url: string;
  let pool: pg.Pool;
  let queues = 0;

  before(async function () {
    this.timeout(60_000); // the first suite of the run starts the cluster
    url = await sharedPostgresCluster().createDatabase('pgboss_contract');
    pool = new pg.Pool({ connectionString: url, max: 8 });
  });

  after(async () => {
    await pool.end();
    await sharedPostgresCluster().dropDatabase(url);
  });

  // One database, a fresh pg-boss queue per test; polling is short so that the suite's waits stay small.
  jobQueueContract(
    'PgBossJobQueue (real PostgreSQL)',
    async (run, limits) => {
      const queue = new PgBossJobQueue(
        run,
        { pool, ...limits, queueName: `contract-${++queues}`, pollIntervalMs: 20, retryDelaySeconds: 1 },
        new RecordingLogger(),
      );
      await queue.start();
      return { queue, close: () => queue.stop() };
    },
    { timeoutMs: 10_000 },
  );
});
