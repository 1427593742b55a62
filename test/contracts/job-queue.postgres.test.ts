import { expect } from 'chai';
import pg from 'pg';
import { PostgresJobQueue, type PostgresJobQueueOptions } from '../../adapters/postgres-queue/postgres-job-queue.js';
import { JobStoppedError } from '../../core/domain/errors.js';
import type { JobHandler } from '../../core/ports/job-queue.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { jobQueueContract } from './job-queue.contract.js';

describeWithPostgres('JobQueue on a PostgreSQL table', () => {
  let url: string;
  let pool: pg.Pool;
  let queues = 0;

  before(async function () {
    this.timeout(60_000); // the first suite of the run starts the cluster
    url = await sharedPostgresCluster().createDatabase('queue_contract');
    pool = new pg.Pool({ connectionString: url, max: 8 });
    // pool.end() resolves before its clients' sockets are closed; dropping the database then ends them with an error
    // that an idle client re-emits on the pool, uncaught without a listener (as openPostgresDatabase's pool has one).
    pool.on('error', () => {});
  });

  after(async () => {
    await pool.end();
    await sharedPostgresCluster().dropDatabase(url);
  });

  // One database, a fresh queue name per test; polling is short so that the suite's waits stay small.
  jobQueueContract(
    'PostgresJobQueue (real PostgreSQL)',
    async (run, limits) => {
      const queue = new PostgresJobQueue(
        run,
        { pool, ...limits, queueName: `contract-${++queues}`, pollIntervalMs: 20, retryDelaySeconds: 1 },
        new RecordingLogger(),
      );
      await queue.start();
      return { queue, close: () => queue.stop() };
    },
    { timeoutMs: 10_000 },
  );

  describe('PostgresJobQueue', () => {
    const started: PostgresJobQueue[] = [];
    afterEach(async () => {
      await Promise.all(started.splice(0).map((queue) => queue.stop()));
    });

    async function startQueue(run: JobHandler, options: Partial<PostgresJobQueueOptions> & { queueName: string }): Promise<PostgresJobQueue> {
      const queue = new PostgresJobQueue(run, { pool, concurrency: 1, pollIntervalMs: 20, retryDelaySeconds: 1, ...options }, new RecordingLogger());
      started.push(queue);
      await queue.start();
      return queue;
    }

    async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await done())) {
        if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** The queue table's row of a job. */
    const row = async (queueName: string, jobId: string) =>
      (await pool.query<{ state: string; retry_count: number }>('SELECT state, retry_count FROM doc_chat_queue.job WHERE name = $1 AND id = $2', [queueName, jobId])).rows[0];

    it('runs a job enqueued again after its row completed (ResumeIngestion hands back records left unfinished)', async () => {
      const runs: string[] = [];
      const queue = await startQueue(async (id) => void runs.push(id), { queueName: 'again-completed' });
      queue.enqueue({ id: 'job-1', userId: 'u' });
      await until(async () => (await row('again-completed', 'job-1'))?.state === 'completed', 'the first run to complete');
      queue.enqueue({ id: 'job-1', userId: 'u' });
      await until(() => runs.length === 2, 'the second run');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(runs).to.deep.equal(['job-1', 'job-1']);
    });

    it('runs a cancelled waiting job enqueued again, once', async () => {
      const runs: string[] = [];
      let release!: () => void;
      const blocker = new Promise<void>((resolve) => (release = resolve));
      const queue = await startQueue(async (id) => {
        runs.push(id);
        if (id === 'job-0') await blocker;
      }, { queueName: 'again-cancelled' });
      queue.enqueue({ id: 'job-0', userId: 'u' });
      queue.enqueue({ id: 'job-1', userId: 'u' });
      await until(() => runs.length === 1, 'the first job');
      queue.cancel('job-1');
      await until(async () => (await row('again-cancelled', 'job-1'))?.state === 'cancelled', 'the cancel');
      queue.enqueue({ id: 'job-1', userId: 'u' });
      release();
      await until(() => runs.length === 2, 'the job enqueued again');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(runs).to.deep.equal(['job-0', 'job-1']);
    });

    it('retries a job whose handler throws, with backoff, until the retry limit; then its row is failed', async () => {
      const runs: number[] = [];
      await startQueue(async () => {
        runs.push(Date.now());
        throw new Error('database unreachable');
      }, { queueName: 'retries', retryLimit: 2 }).then((queue) => queue.enqueue({ id: 'job-1', userId: 'u' }));
      await until(async () => (await row('retries', 'job-1'))?.state === 'failed', 'the retries to run out', 20_000);
      expect(runs).to.have.length(3); // the run and two retries
      // Waits of at least 1 s, then 2 s (retryDelaySeconds 1, doubled, with up to as much again as jitter).
      expect(runs[1]! - runs[0]!).to.be.at.least(1000);
      expect(runs[2]! - runs[1]!).to.be.at.least(2000);
      expect(await row('retries', 'job-1')).to.deep.equal({ state: 'failed', retry_count: 2 });
    });

    it('shares the per-user limit between instances, and runs each job once', async () => {
      const running = new Map<string, number>();
      const runs: string[] = [];
      let mostOfOneUser = 0;
      const run: JobHandler = async (id) => {
        const user = id.slice(0, 1);
        running.set(user, (running.get(user) ?? 0) + 1);
        mostOfOneUser = Math.max(mostOfOneUser, running.get(user)!);
        runs.push(id);
        await new Promise((resolve) => setTimeout(resolve, 15));
        running.set(user, running.get(user)! - 1);
      };
      const first = await startQueue(run, { queueName: 'shared', concurrency: 2 });
      await startQueue(run, { queueName: 'shared', concurrency: 2 });
      const jobs = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1'];
      for (const id of jobs) first.enqueue({ id, userId: id.slice(0, 1) });
      await until(() => runs.length === jobs.length, 'every job');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([...runs].sort()).to.deep.equal(jobs);
      expect(mostOfOneUser).to.equal(1);
    });

    it('counts a user’s finishing job in every instance: the next starts on another instance, one more only after it ends', async () => {
      const release = new Map<string, () => void>();
      const finishing = new Map<string, () => void>();
      const running = new Set<string>();
      const run: JobHandler = async (id, _signal, finish) => {
        running.add(id);
        finishing.set(id, finish);
        await new Promise<void>((resolve) => release.set(id, resolve));
        running.delete(id);
      };
      // One job at a time in each instance: alice's second can only run in the other one.
      const first = await startQueue(run, { queueName: 'finishing', concurrency: 1 });
      await startQueue(run, { queueName: 'finishing', concurrency: 1 });
      const third = await startQueue(run, { queueName: 'finishing', concurrency: 1 });
      for (const id of ['a1', 'a2', 'a3']) first.enqueue({ id, userId: 'alice' });
      await until(() => running.size === 1, 'alice’s first job');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([...running]).to.deep.equal(['a1']); // three instances free, one per user
      finishing.get('a1')!();
      await until(() => running.has('a2'), 'alice’s second job once the first is finishing');
      finishing.get('a2')!();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...running].sort(), 'one finishing job beyond the limit at most, in all instances').to.deep.equal(['a1', 'a2']);
      release.get('a1')!();
      await until(() => running.has('a3'), 'alice’s third job once the first ended');
      release.get('a2')!();
      release.get('a3')!();
      await until(() => running.size === 0, 'every job to end');
      await third.whenIdle();
    });

    it('on stop, aborts running jobs as a shutdown and hands them back: another instance runs them', async () => {
      const reasons: unknown[] = [];
      const leaving = await startQueue(async (_id, signal) => {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        reasons.push(signal.reason);
      }, { queueName: 'handed-back', leaseSeconds: 600 });
      leaving.enqueue({ id: 'job-1', userId: 'u' });
      await until(async () => (await row('handed-back', 'job-1'))?.state === 'active', 'the job to start');
      await leaving.stop();
      expect(reasons).to.have.length(1);
      expect(reasons[0]).to.be.instanceOf(JobStoppedError).and.have.property('why', 'shutdown');
      expect(await row('handed-back', 'job-1')).to.deep.equal({ state: 'created', retry_count: 0 }); // not counted as a retry
      leaving.enqueue({ id: 'job-2', userId: 'u' }); // a stopped queue takes nothing

      const runs: string[] = [];
      await startQueue(async (id) => void runs.push(id), { queueName: 'handed-back' });
      await until(() => runs.length === 1, 'the job handed back');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(runs).to.deep.equal(['job-1']);
    });

    it('takes jobs as soon as start() is called, sending them once the queue exists; before start() it refuses them', async () => {
      const runs: string[] = [];
      const queue = new PostgresJobQueue(async (id) => void runs.push(id), { pool, concurrency: 1, queueName: 'early', pollIntervalMs: 20 }, new RecordingLogger());
      started.push(queue);
      expect(() => queue.enqueue({ id: 'too-early', userId: 'u' })).to.throw(Error, 'call start() before enqueue');
      const starting = queue.start();
      queue.enqueue({ id: 'job-1', userId: 'u' }); // the queue's table is still being created
      await starting;
      await until(() => runs.length === 1, 'the job');
      expect(runs).to.deep.equal(['job-1']);
    });

    it('whenIdle resolves once no job waits or runs in any instance', async () => {
      const runs: string[] = [];
      const producer = await startQueue(async () => {}, { queueName: 'idle', work: false });
      await producer.whenIdle(); // nothing enqueued yet
      await startQueue(async (id) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        runs.push(id);
      }, { queueName: 'idle' });
      for (const id of ['job-1', 'job-2', 'job-3']) producer.enqueue({ id, userId: 'u' });
      await producer.whenIdle(); // the jobs run in the other instance
      expect(runs).to.deep.equal(['job-1', 'job-2', 'job-3']);
    });

    it('refuses settings that are not positive integers', () => {
      const run = async () => {};
      expect(() => new PostgresJobQueue(run, { pool, concurrency: 0 }, new RecordingLogger())).to.throw(RangeError, 'concurrency');
      expect(() => new PostgresJobQueue(run, { pool, concurrency: 1, leaseSeconds: 0.5 }, new RecordingLogger())).to.throw(RangeError, 'leaseSeconds');
      expect(() => new PostgresJobQueue(run, { pool, concurrency: 1, schema: 'x; DROP' }, new RecordingLogger())).to.throw(RangeError, 'schema');
    });
  });
});
