import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import pg from 'pg';
import { PostgresJobQueue, type PostgresJobQueueOptions } from '../../../adapters/postgres-queue/postgres-job-queue.js';
import type { JobHandler } from '../../../core/ports/job-queue.js';
import { RecordingLogger } from '../../fakes/fixed-clock-and-ids.js';
import { REPO_ROOT } from '../../support/paths.js';
import { describeWithPostgres, sharedPostgresCluster } from '../../support/postgres-cluster.js';

interface LogRow {
  job_id: string;
  worker: string;
  event: string;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await tick(25);
  }
}

/**
 * Worker processes sharing one queue (test/support/postgres-queue-worker.ts, one job at a time, 2 s lease) beside
 * instances in this process, all writing what they run to work_log: what a deployment of several workers relies on.
 */
describeWithPostgres('PostgresJobQueue across processes', () => describe('PostgresJobQueue across processes', function () {
  this.timeout(90_000);
  let url: string;
  let pool: pg.Pool;
  let queueName: string;
  let queues = 0;
  const children: ChildProcess[] = [];
  const local: PostgresJobQueue[] = [];

  before(async function () {
    this.timeout(60_000);
    url = await sharedPostgresCluster().createDatabase('queue_processes');
    pool = new pg.Pool({ connectionString: url, max: 6 });
    // pool.end() resolves before its clients' sockets are closed; dropping the database then ends them with an error
    // that an idle client re-emits on the pool, uncaught without a listener (as openPostgresDatabase's pool has one).
    pool.on('error', () => {});
    await pool.query('CREATE TABLE work_log (seq serial PRIMARY KEY, job_id text NOT NULL, worker text NOT NULL, event text NOT NULL)');
  });

  beforeEach(() => {
    queueName = `processes-${++queues}`;
  });

  const loggers: RecordingLogger[] = [];
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') for (const logger of loggers) console.log(logger.lines);
    loggers.length = 0;
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(local.splice(0).map((queue) => queue.stop()));
  });

  after(async () => {
    await pool.end();
    await sharedPostgresCluster().dropDatabase(url);
  });

  const log = async (jobId?: string): Promise<LogRow[]> =>
    (await pool.query<LogRow>('SELECT job_id, worker, event FROM work_log WHERE job_id LIKE $1 ORDER BY seq', [`${queueName}:${jobId ?? ''}%`])).rows
      .map((row) => ({ ...row, job_id: row.job_id.slice(queueName.length + 1) }));
  const has = async (jobId: string, worker: string, event: string) =>
    (await log(jobId)).some((row) => row.job_id === jobId && row.worker === worker && row.event === event);
  /** Job ids carry the test's queue name, so that each test reads only its own rows of work_log. */
  const job = (id: string, userId: string) => ({ id: `${queueName}:${id}`, userId });

  async function spawnWorker(name: string, leaseSeconds = 2): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/postgres-queue-worker.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PG_URL: url, QUEUE_NAME: queueName, WORKER_NAME: name, LEASE_SECONDS: String(leaseSeconds) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await until(async () => {
      if (child.exitCode !== null) expect.fail(`worker ${name} exited with ${child.exitCode}`);
      return out.includes('ready');
    }, `worker ${name} to start`);
    return child;
  }

  /** An instance in this process; `run` writes to work_log as worker `name` unless given. */
  async function localQueue(name: string, options: Partial<PostgresJobQueueOptions> = {}, run?: JobHandler): Promise<PostgresJobQueue> {
    const handler: JobHandler = run ?? (async (jobId) => {
      await pool.query('INSERT INTO work_log (job_id, worker, event) VALUES ($1, $2, $3)', [jobId, name, 'started']);
      await tick(10);
      await pool.query('INSERT INTO work_log (job_id, worker, event) VALUES ($1, $2, $3)', [jobId, name, 'finished']);
    });
    const queue = new PostgresJobQueue(
      handler,
      { pool, concurrency: 2, queueName, pollIntervalMs: 50, leaseSeconds: 2, retryDelaySeconds: 1, maintenanceIntervalSeconds: 1, ...options },
      loggers[loggers.push(new RecordingLogger()) - 1]!,
    );
    local.push(queue);
    await queue.start();
    return queue;
  }

  it('a worker SIGKILLed mid-job: another finishes the job once, nothing is lost, and the user’s limit held meanwhile', async () => {
    const producer = await localQueue('producer', { work: false });
    const doomed = await spawnWorker('doomed');
    producer.enqueue(job('hold-1', 'alice'));
    await until(() => has('hold-1', 'doomed', 'started'), 'the doomed worker to start alice’s job');

    await localQueue('survivor');
    producer.enqueue(job('a-2', 'alice'));
    producer.enqueue(job('b-1', 'bob'));
    await until(() => has('b-1', 'survivor', 'finished'), 'bob’s job, in the other worker');
    await tick(500); // ten polls of the survivor, which has a free slot: alice's job runs elsewhere, so her next waits
    expect(await has('a-2', 'survivor', 'started')).to.equal(false);

    const killedAt = Date.now();
    doomed.kill('SIGKILL');
    await once(doomed, 'exit');
    await until(async () => (await has('hold-1', 'survivor', 'finished')) && (await has('a-2', 'survivor', 'finished')), 'both of alice’s jobs');
    console.log(`      the killed worker's job finished elsewhere ${Date.now() - killedAt} ms after the kill (lease 2 s, maintenance 1 s, retry delay 1-2 s)`);
    await tick(300);

    // Each job finished once, all in the survivor (the producer runs nothing: work false).
    const finished = (await log()).filter((row) => row.event === 'finished').map((row) => `${row.job_id} ${row.worker}`).sort();
    expect(finished).to.deep.equal(['a-2 survivor', 'b-1 survivor', 'hold-1 survivor']);
    const runsOfHeld = (await log('hold-1')).map((row) => `${row.worker} ${row.event}`);
    expect(runsOfHeld).to.deep.equal(['doomed started', 'survivor started', 'survivor finished']);
  });

  it('cancel in one process stops the job running in another, which is not run again', async () => {
    const producer = await localQueue('producer', { work: false });
    await spawnWorker('worker');
    producer.enqueue(job('hold-2', 'alice'));
    await until(() => has('hold-2', 'worker', 'started'), 'the worker to start the job');
    producer.cancel(job('hold-2', 'alice').id);
    await until(() => has('hold-2', 'worker', 'stopped:cancelled'), 'the worker to stop the job as cancelled');

    producer.enqueue(job('next', 'alice')); // the worker goes on with other work
    await until(() => has('next', 'worker', 'finished'), 'the next job');
    expect((await log('hold-2')).map((row) => row.event)).to.deep.equal(['started', 'stopped:cancelled']);
  });

  it('a worker stopped with SIGTERM hands its running job back at once: another takes it long before the lease ends', async () => {
    const producer = await localQueue('producer', { work: false });
    const leaving = await spawnWorker('leaving', 600);
    producer.enqueue(job('hold-3', 'alice'));
    await until(() => has('hold-3', 'leaving', 'started'), 'the leaving worker to start the job');
    await localQueue('staying', { leaseSeconds: 600 });

    leaving.kill('SIGTERM');
    const [code] = await once(leaving, 'exit');
    expect(code).to.equal(0);
    await until(() => has('hold-3', 'staying', 'finished'), 'the other worker to finish the job', 20_000);
    expect((await log('hold-3')).map((row) => `${row.worker} ${row.event}`)).to.deep.equal([
      'leaving started', 'leaving stopped:shutdown', 'staying started', 'staying finished',
    ]);
  });
}));
