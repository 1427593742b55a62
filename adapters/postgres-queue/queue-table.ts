import type pg from 'pg';

/**
 * The queue's own table on the records' PostgreSQL database, and every statement on it.
 *
 * Why its own table and not a queue library's: the fair pick (each user's jobs in enqueue order, users taking turns,
 * least recently served first, no user above a limit in all processes together) must read the waiting jobs of every
 * user. pg-boss 12 (the current major) fetches by priority and age only; its groupConcurrency caps a group's active
 * jobs but never rotates groups, so a long queue of one user still starts before another user's first job. Doing
 * the pick over pg-boss's job table would be SQL against a library's internal table, which breaks at its next
 * migration (as pg-boss 10's did). The rest is small and lives here too: a lease renewed while a job runs, retries
 * with doubling delay, expiry of jobs whose process died, and deletion of ended rows after an hour.
 */

/** A job this process took: the port's id, its user, and when this run started (the lease's owner token). */
export interface TakenJob {
  jobId: string;
  userId: string;
  /** started_on as PostgreSQL prints it: exact to the microsecond, so it identifies this run of the job. */
  lease: string;
}

/** What a running job's row says now: still ours, cancelled, or taken from us (expired, then maybe run elsewhere). */
export type RunState = 'ours' | 'cancelled' | 'lost';

/** Per job, fixed when it is enqueued: any process that fails or expires it applies the same policy. */
export interface RetryPolicy {
  /** Runs after the first, after the handler threw or the lease expired. */
  retryLimit: number;
  /** First wait before a retry in seconds, doubled each time, plus up to as much again as jitter (at most an hour). */
  retryDelaySeconds: number;
}

const WAITING = `state IN ('created', 'retry')`;
const ENDED = `state IN ('completed', 'cancelled', 'failed')`;
/** A run that ended badly: retried after a doubling delay while retries remain, else failed for good. */
const RETRY_OR_FAIL = `
  state = CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END,
  start_after = now() + least(3600, retry_delay * power(2, retry_count) * (1 + random())) * interval '1 second',
  completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
  retry_count = CASE WHEN retry_count < retry_limit THEN retry_count + 1 ELSE retry_count END`;

export class QueueTable {
  private readonly job: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly name: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new RangeError(`queue schema must be a plain identifier, not ${JSON.stringify(schema)}`);
    this.job = `${schema}.job`;
  }

  /** Creates the schema and table when missing; instances starting together serialise on an advisory lock. */
  async create(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`doc-chat-queue-schema:${this.schema}`]);
      await client.query(`
        CREATE SCHEMA IF NOT EXISTS ${this.schema};
        CREATE TABLE IF NOT EXISTS ${this.job} (
          name text NOT NULL,
          id text NOT NULL,
          user_id text NOT NULL,
          state text NOT NULL DEFAULT 'created'
            CHECK (state IN ('created', 'retry', 'active', 'completed', 'cancelled', 'failed')),
          seq bigserial NOT NULL, -- enqueue order (timestamps can tie)
          retry_count integer NOT NULL DEFAULT 0,
          retry_limit integer NOT NULL,
          retry_delay integer NOT NULL,
          created_on timestamptz NOT NULL DEFAULT now(),
          start_after timestamptz NOT NULL DEFAULT now(),
          started_on timestamptz,
          expire_at timestamptz,
          completed_on timestamptz,
          output text,
          PRIMARY KEY (name, id)
        );
        -- A running job in its tail (JobHandler's finishing): up to the per-user limit of them are not counted.
        ALTER TABLE ${this.job} ADD COLUMN IF NOT EXISTS finishing boolean NOT NULL DEFAULT false;
        CREATE INDEX IF NOT EXISTS job_waiting ON ${this.job} (name, seq) WHERE ${WAITING};
        CREATE INDEX IF NOT EXISTS job_active ON ${this.job} (name, expire_at) WHERE state = 'active';
        CREATE INDEX IF NOT EXISTS job_ended ON ${this.job} (name, completed_on) WHERE ${ENDED};`);
    });
  }

  /**
   * Adds a job, or, when its row ended (completed, cancelled or failed while its record is unfinished, e.g. handed
   * back by ResumeIngestion), makes it wait again as if new; a waiting or running row is left as it is.
   */
  async send(jobId: string, userId: string, retry: RetryPolicy): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.job} AS j (name, id, user_id, retry_limit, retry_delay) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name, id) DO UPDATE SET state = 'created', user_id = EXCLUDED.user_id, seq = DEFAULT, retry_count = 0,
         retry_limit = EXCLUDED.retry_limit, retry_delay = EXCLUDED.retry_delay, created_on = now(), start_after = now(),
         started_on = NULL, expire_at = NULL, completed_on = NULL, output = NULL
       WHERE j.${ENDED}`,
      [this.name, jobId, userId, retry.retryLimit, retry.retryDelaySeconds],
    );
  }

  /** Cancels a waiting or running job (a running one's process sees it at its next check and aborts it). */
  async cancel(jobId: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'cancelled', completed_on = now() WHERE name = $1 AND id = $2 AND state IN ('created', 'retry', 'active')`,
      [this.name, jobId],
    );
  }

  /**
   * Starts up to `limit` waiting jobs: each user's jobs in enqueue order, no user above `perUser` active jobs in all
   * processes (jobs in their tail not counted, up to `perUser` of them: see finishing()), and among users the one
   * whose job started least recently first (never started: first of all), each user's first waiting job before
   * anyone's second. Counting a user's active jobs and starting more must not
   * interleave between processes, so takers serialise on an advisory lock; rows a cancel holds at that moment are
   * skipped (SKIP LOCKED) rather than waited for, and taken at a later poll if still waiting.
   */
  async take(limit: number, perUser: number, leaseSeconds: number): Promise<TakenJob[]> {
    // Most polls find nothing: the waiting index answers that without the lock and the scans below.
    const { rows: waiting } = await this.pool.query(
      `SELECT 1 FROM ${this.job} WHERE name = $1 AND ${WAITING} AND start_after <= now() LIMIT 1`,
      [this.name],
    );
    if (waiting.length === 0) return [];
    const rows = await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`doc-chat-queue:${this.job}:${this.name}`]);
      const result = await client.query<{ job_id: string; user_id: string; lease: string; turn: string }>(
        `WITH running AS (
           SELECT user_id, count(*) - least(count(*) FILTER (WHERE finishing), $2) AS n
           FROM ${this.job} WHERE name = $1 AND state = 'active' GROUP BY 1
         ), served AS (
           SELECT user_id, max(started_on) AS last_started FROM ${this.job}
           WHERE name = $1 AND started_on IS NOT NULL GROUP BY 1
         ), ready AS (
           SELECT id, user_id, seq FROM ${this.job}
           WHERE name = $1 AND ${WAITING} AND start_after <= now()
           FOR UPDATE SKIP LOCKED
         ), waiting AS (
           SELECT id, user_id, seq, row_number() OVER (PARTITION BY user_id ORDER BY seq) AS place FROM ready
         ), chosen AS (
           SELECT w.id, row_number() OVER (ORDER BY w.place, s.last_started NULLS FIRST, w.seq) AS turn
           FROM waiting w LEFT JOIN running r USING (user_id) LEFT JOIN served s USING (user_id)
           WHERE w.place <= $2 - COALESCE(r.n, 0)
           ORDER BY turn LIMIT $3
         )
         UPDATE ${this.job} j SET state = 'active', finishing = false, started_on = now(), expire_at = now() + $4 * interval '1 second'
         FROM chosen WHERE j.name = $1 AND j.id = chosen.id AND j.${WAITING}
         RETURNING j.id AS job_id, j.user_id, j.started_on::text AS lease, chosen.turn`,
        [this.name, perUser, limit, leaseSeconds],
      );
      return result.rows;
    });
    // RETURNING follows no order: start them in their turn.
    return rows.sort((a, b) => Number(a.turn) - Number(b.turn)).map((r) => ({ jobId: r.job_id, userId: r.user_id, lease: r.lease }));
  }

  /** Whether no job of the queue waits (also for a retry) or runs, in any process. */
  async isIdle(): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM ${this.job} WHERE name = $1 AND state IN ('created', 'retry', 'active') LIMIT 1`,
      [this.name],
    );
    return rows.length === 0;
  }

  /** Where each running job stands: cancelled (by any process), still this run's, or no longer (lost). */
  async check(jobs: readonly TakenJob[]): Promise<Map<string, RunState>> {
    const { rows } = await this.pool.query<{ id: string; state: string | null; ours: boolean | null }>(
      `SELECT mine.id, j.state, j.started_on = mine.lease AS ours
       FROM unnest($2::text[], $3::timestamptz[]) AS mine(id, lease)
       LEFT JOIN ${this.job} j ON j.name = $1 AND j.id = mine.id`,
      [this.name, jobs.map((j) => j.jobId), jobs.map((j) => j.lease)],
    );
    const states = new Map<string, RunState>();
    for (const row of rows) {
      states.set(row.id, row.state === 'cancelled' ? 'cancelled' : row.state === 'active' && row.ours ? 'ours' : 'lost');
    }
    return states;
  }

  /** Renews the lease of running jobs: each expires `leaseSeconds` from now unless renewed again (heartbeat). */
  async renew(jobs: readonly TakenJob[], leaseSeconds: number): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} j SET expire_at = now() + $4 * interval '1 second'
       FROM unnest($2::text[], $3::timestamptz[]) AS mine(id, lease)
       WHERE j.name = $1 AND j.id = mine.id AND j.state = 'active' AND j.started_on = mine.lease`,
      [this.name, jobs.map((j) => j.jobId), jobs.map((j) => j.lease), leaseSeconds],
    );
  }

  /** This run of the job is in its tail: its user's next job may start beside it (see take). */
  async finishing(job: TakenJob): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET finishing = true WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.jobId, job.lease],
    );
  }

  /** Marks this run of the job completed; a run whose lease was lost (or a cancelled job) changes nothing. */
  async complete(job: TakenJob): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'completed', completed_on = now()
       WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.jobId, job.lease],
    );
  }

  /** This run's handler threw: the job is retried after a delay while retries remain, else failed. */
  async fail(job: TakenJob, message: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET ${RETRY_OR_FAIL}, output = $4
       WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.jobId, job.lease, message],
    );
  }

  /** Hands a job this process stopped (shutdown) back to the queue at once, not counted as a retry. */
  async release(job: TakenJob): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'created', started_on = NULL, expire_at = NULL, start_after = now()
       WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.jobId, job.lease],
    );
  }

  /**
   * Maintenance, run by every working process now and then: a running job whose lease ran out (its process died or
   * hung) is retried like a failure, and ended rows older than an hour are deleted (a user idle for an hour comes
   * back as a newcomer anyway, as in the embedded queue; the records keep each job's outcome).
   */
  async maintain(): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET ${RETRY_OR_FAIL}, output = 'lease expired'
       WHERE name = $1 AND state = 'active' AND expire_at < now()`,
      [this.name],
    );
    await this.pool.query(`DELETE FROM ${this.job} WHERE name = $1 AND ${ENDED} AND completed_on < now() - interval '1 hour'`, [this.name]);
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
