/**
 * A worker process for the multi-process queue tests: runs a PostgresJobQueue on the database given in the environment,
 * writing what its handler does to the table work_log (job_id, worker, event). Jobs whose id ends in `hold-<n>` run
 * until they are stopped; others end after a moment. Prints `ready` once it takes jobs; SIGTERM stops it gracefully.
 * Settings: PG_URL, QUEUE_NAME, WORKER_NAME, LEASE_SECONDS (default 2).
 */
import pg from 'pg';
import { PostgresJobQueue } from '../../adapters/postgres-queue/postgres-job-queue.js';
import { JobStoppedError } from '../../core/domain/errors.js';

const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const worker = env('WORKER_NAME');
const pool = new pg.Pool({ connectionString: env('PG_URL'), max: 4 });
const log = (jobId: string, event: string) =>
  pool.query('INSERT INTO work_log (job_id, worker, event) VALUES ($1, $2, $3)', [jobId, worker, event]);

const queue = new PostgresJobQueue(
  async (jobId, signal) => {
    await log(jobId, 'started');
    const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await (/hold-\d+$/.test(jobId) ? stopped : Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 20))]));
    const reason = signal.reason as unknown;
    await log(jobId, reason instanceof JobStoppedError ? `stopped:${reason.why}` : 'finished');
  },
  {
    pool,
    concurrency: 1,
    queueName: env('QUEUE_NAME'),
    pollIntervalMs: 50,
    leaseSeconds: Number(process.env.LEASE_SECONDS ?? 2),
    retryDelaySeconds: 1,
    maintenanceIntervalSeconds: 1,
  },
  {
    // What went wrong shows in the test's output (stderr is inherited).
    info: () => {},
    warn: (message, fields) => console.error(`[${worker}] ${message}`, JSON.stringify(fields ?? {})),
    error: (message, fields) => console.error(`[${worker}] ${message}`, JSON.stringify(fields ?? {})),
  },
);

await queue.start();
process.once('SIGTERM', () => {
  void queue.stop().then(() => pool.end()).then(() => process.exit(0));
});
console.log('ready');
