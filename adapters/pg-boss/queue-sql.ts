import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The statements pg-boss has no call for, written against pg-boss 10's job table (the version pinned in
 * package.json; its columns: name, id, data, state, started_on, created_on, start_after, expire_in, retry_count,
 * completed_on, keep_until, output). pg-boss's own fetch takes jobs by priority and age only and its singleton
 * policy allows one active job per key and fails the fetch when a second would start; fairness across users and a
 * per-user limit above one need the choice made here, in one transaction that every process serialises on.
 */

/** A job this process took: pg-boss's id, the port's id, and when this run started (the lease's owner token). */
export interface TakenJob {
  bossId: string;
  jobId: string;
  userId: string;
  /** started_on as PostgreSQL prints it: exact to the microsecond, so it identifies this run of the job. */
  lease: string;
}

/** What a running job's row says now: still ours, cancelled, or taken from us (expired, then run elsewhere). */
export type RunState = 'ours' | 'cancelled' | 'lost';

/** pg-boss ids are UUIDs; the port's ids are any string. The same id always maps to the same UUID (name-based, as v5). */
export function bossIdOf(jobId: string): string {
  const hash = createHash('sha1').update(`doc-chat-job:${jobId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class QueueSql {
  private readonly job: string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly name: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new RangeError(`pg-boss schema must be a plain identifier, not ${JSON.stringify(schema)}`);
    this.job = `${schema}.job`;
  }

  /**
   * Starts up to `limit` waiting jobs: each user's jobs in enqueue order, no user above `perUser` active jobs in all
   * processes, and among users the one whose job started least recently first (never started: first of all), each
   * user's first waiting job before anyone's second. An advisory lock serialises this across processes, so two
   * workers never both see a user below the limit; the query reads the table after the lock is held.
   */
  async take(limit: number, perUser: number, leaseSeconds: number): Promise<TakenJob[]> {
    // Most polls find nothing: pg-boss's fetch index answers that without the lock and the scans below.
    const { rows: waiting } = await this.pool.query(
      `SELECT 1 FROM ${this.job} WHERE name = $1 AND state IN ('created', 'retry') AND start_after < now() LIMIT 1`,
      [this.name],
    );
    if (waiting.length === 0) return [];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`doc-chat-queue:${this.job}:${this.name}`]);
      const { rows } = await client.query<{ id: string; job_id: string; user_id: string; lease: string; turn: string }>(
        `WITH running AS (
           SELECT data->>'userId' AS user_id, count(*) AS n FROM ${this.job}
           WHERE name = $1 AND state = 'active' GROUP BY 1
         ), served AS (
           SELECT data->>'userId' AS user_id, max(started_on) AS last_started FROM ${this.job}
           WHERE name = $1 AND started_on IS NOT NULL GROUP BY 1
         ), waiting AS (
           SELECT id, data->>'userId' AS user_id, created_on,
             row_number() OVER (PARTITION BY data->>'userId' ORDER BY created_on, id) AS place
           FROM ${this.job} WHERE name = $1 AND state IN ('created', 'retry') AND start_after < now()
         ), chosen AS (
           SELECT w.id, row_number() OVER (ORDER BY w.place, s.last_started NULLS FIRST, w.created_on, w.id) AS turn
           FROM waiting w LEFT JOIN running r USING (user_id) LEFT JOIN served s USING (user_id)
           WHERE w.place <= $2 - COALESCE(r.n, 0)
           ORDER BY turn LIMIT $3
         )
         UPDATE ${this.job} j SET state = 'active', started_on = now(), expire_in = $4 * interval '1 second',
           retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
         FROM chosen WHERE j.name = $1 AND j.id = chosen.id
         RETURNING j.id, j.data->>'jobId' AS job_id, j.data->>'userId' AS user_id, j.started_on::text AS lease, chosen.turn`,
        [this.name, perUser, limit, leaseSeconds],
      );
      await client.query('COMMIT');
      // RETURNING follows no order: start them in their turn.
      return rows
        .sort((a, b) => Number(a.turn) - Number(b.turn))
        .map((r) => ({ bossId: r.id, jobId: r.job_id, userId: r.user_id, lease: r.lease }));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
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
       FROM unnest($2::uuid[], $3::timestamptz[]) AS mine(id, lease)
       LEFT JOIN ${this.job} j ON j.name = $1 AND j.id = mine.id`,
      [this.name, jobs.map((j) => j.bossId), jobs.map((j) => j.lease)],
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
      `UPDATE ${this.job} j SET expire_in = (now() - j.started_on) + $4 * interval '1 second'
       FROM unnest($2::uuid[], $3::timestamptz[]) AS mine(id, lease)
       WHERE j.name = $1 AND j.id = mine.id AND j.state = 'active' AND j.started_on = mine.lease`,
      [this.name, jobs.map((j) => j.bossId), jobs.map((j) => j.lease), leaseSeconds],
    );
  }

  /** Marks this run of the job completed; a run whose lease was lost (or a cancelled job) changes nothing. */
  async complete(job: TakenJob): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'completed', completed_on = now()
       WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.bossId, job.lease],
    );
  }

  /** Hands a job this process stopped (shutdown) back to the queue at once, not counted as a retry. */
  async release(job: TakenJob): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'created', started_on = NULL, start_after = now()
       WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`,
      [this.name, job.bossId, job.lease],
    );
  }

  /**
   * A job enqueued again after its row ended (completed, cancelled or failed while its record is unfinished, e.g.
   * handed back by ResumeIngestion) waits again as if new; a waiting or running row is left as it is.
   */
  async revive(bossId: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.job} SET state = 'created', started_on = NULL, completed_on = NULL, output = NULL, retry_count = 0,
         start_after = now(), keep_until = now() + (keep_until - created_on), created_on = now()
       WHERE name = $1 AND id = $2 AND state IN ('completed', 'cancelled', 'failed')`,
      [this.name, bossId],
    );
  }
}
