import { IngestAlreadyActiveError } from '../../core/domain/errors.js';
import type { IngestCheckpoint, IngestJob, IngestStage, IngestStatus } from '../../core/domain/model.js';
import type { IngestJobPatch, IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { Db, IngestJobsTable } from './schema.js';

/**
 * The partial unique index ingest_jobs_one_active_per_key refused a second active job for a user's key: SQLite says
 * so in its message, PostgreSQL by error code and constraint name (the repository serves both).
 */
function isActiveKeyConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (code === '23505') return constraint === 'ingest_jobs_one_active_per_key';
  return /UNIQUE constraint failed: ingest_jobs\.user_id, ingest_jobs\.blob_key/.test(error.message);
}

export class KyselyIngestJobRepo implements IngestJobRepo {
  constructor(private readonly db: Db) {}

  async create(job: IngestJob): Promise<void> {
    try {
      await this.insert(job);
    } catch (error) {
      if (!isActiveKeyConflict(error)) throw error;
      const active = await this.findActiveByKey(job.userId, job.key);
      if (!active) throw error;
      throw new IngestAlreadyActiveError(active.id);
    }
  }

  private async insert(job: IngestJob): Promise<void> {
    await this.db
      .insertInto('ingest_jobs')
      .values({
        id: job.id,
        user_id: job.userId,
        session_id: job.sessionId,
        blob_key: job.key,
        filename: job.filename,
        content_type: job.contentType,
        tags_json: JSON.stringify(job.tags),
        status: job.status,
        stage: job.stage ?? null,
        progress: job.progress ?? null,
        error: job.error ?? null,
        pages: job.pages ?? null,
        chunks: job.chunks ?? null,
        sha256: job.sha256 ?? null,
        reused_from: job.reusedFrom ?? null,
        copied_from: job.copiedFrom ?? null,
        attached_to: job.attachedTo ?? null,
        attempts: job.attempts ?? 0,
        ocr_skipped_pages: job.ocrSkippedPages ?? null,
        checkpoint_json: job.checkpoint ? JSON.stringify(job.checkpoint) : null,
        reading_page: job.readingPage ?? null,
        died_on_page: job.diedOnPage ?? null,
        kind: job.kind ?? null,
        units_json: job.units ? JSON.stringify(job.units) : null,
        created_at: job.createdAt,
        updated_at: job.updatedAt,
      })
      .execute();
  }

  async findById(id: string): Promise<IngestJob | null> {
    const row = await this.db.selectFrom('ingest_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async update(id: string, patch: IngestJobPatch): Promise<IngestJob | null> {
    const set: Partial<IngestJobsTable> = {};
    // `undefined` in a patch clears the field (e.g. stage once a job ends), absence leaves it.
    if ('status' in patch) set.status = patch.status!;
    if ('stage' in patch) set.stage = patch.stage ?? null;
    if ('progress' in patch) set.progress = patch.progress ?? null;
    if ('error' in patch) set.error = patch.error ?? null;
    if ('pages' in patch) set.pages = patch.pages ?? null;
    if ('chunks' in patch) set.chunks = patch.chunks ?? null;
    if ('sha256' in patch) set.sha256 = patch.sha256 ?? null;
    if ('reusedFrom' in patch) set.reused_from = patch.reusedFrom ?? null;
    if ('attempts' in patch) set.attempts = patch.attempts ?? 0;
    if ('ocrSkippedPages' in patch) set.ocr_skipped_pages = patch.ocrSkippedPages ?? null;
    if ('checkpoint' in patch) set.checkpoint_json = patch.checkpoint ? JSON.stringify(patch.checkpoint) : null;
    if ('readingPage' in patch) set.reading_page = patch.readingPage ?? null;
    if ('diedOnPage' in patch) set.died_on_page = patch.diedOnPage ?? null;
    if ('kind' in patch) set.kind = patch.kind ?? null;
    if ('units' in patch) set.units_json = patch.units ? JSON.stringify(patch.units) : null;
    if ('updatedAt' in patch) set.updated_at = patch.updatedAt!;
    const row = await this.db.updateTable('ingest_jobs').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async listUnfinished(): Promise<IngestJob[]> {
    const rows = await this.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('status', 'in', ['queued', 'processing'])
      .orderBy('created_at')
      .execute();
    return rows.map(toJob);
  }

  async listBySession(sessionId: string): Promise<IngestJob[]> {
    const rows = await this.db.selectFrom('ingest_jobs').selectAll().where('session_id', '=', sessionId).orderBy('created_at').execute();
    return rows.map(toJob);
  }

  async listByKey(key: string): Promise<IngestJob[]> {
    const rows = await this.db.selectFrom('ingest_jobs').selectAll().where('blob_key', '=', key).orderBy('created_at').execute();
    return rows.map(toJob);
  }

  async findCompletedBySha256(sessionId: string, sha256: string): Promise<IngestJob | null> {
    const row = await this.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('sha256', '=', sha256)
      .where('status', '=', 'completed')
      .orderBy('created_at')
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async listCompletedByUser(userId: string, options: { sha256?: string; limit: number }): Promise<IngestJob[]> {
    let query = this.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'completed')
      .where('sha256', 'is not', null);
    if (options.sha256 !== undefined) query = query.where('sha256', '=', options.sha256);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
    return rows.map(toJob);
  }

  async findActiveByKey(userId: string, key: string): Promise<IngestJob | null> {
    const row = await this.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('blob_key', '=', key)
      .where('status', 'in', ['queued', 'processing'])
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const result = await this.db.deleteFrom('ingest_jobs').where('session_id', '=', sessionId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countByStatus(): Promise<Partial<Record<IngestStatus, number>>> {
    const rows = await this.db
      .selectFrom('ingest_jobs')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    // PostgreSQL's count is a bigint, which pg returns as a string.
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }
}

function toJob(row: IngestJobsTable): IngestJob {
  const job: IngestJob = {
    id: row.id,
    userId: row.user_id,
    sessionId: row.session_id,
    key: row.blob_key,
    filename: row.filename,
    contentType: row.content_type,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
    status: row.status as IngestStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.stage !== null) job.stage = row.stage as IngestStage;
  if (row.progress !== null) job.progress = row.progress;
  if (row.error !== null) job.error = row.error;
  if (row.pages !== null) job.pages = row.pages;
  if (row.chunks !== null) job.chunks = row.chunks;
  if (row.sha256 !== null) job.sha256 = row.sha256;
  if (row.reused_from !== null) job.reusedFrom = row.reused_from;
  if (row.copied_from !== null) job.copiedFrom = row.copied_from;
  if (row.attached_to !== null) job.attachedTo = row.attached_to;
  if (row.attempts > 0) job.attempts = row.attempts;
  if (row.ocr_skipped_pages !== null) job.ocrSkippedPages = row.ocr_skipped_pages;
  if (row.checkpoint_json !== null) job.checkpoint = JSON.parse(row.checkpoint_json) as IngestCheckpoint;
  if (row.reading_page !== null) job.readingPage = row.reading_page;
  if (row.died_on_page !== null) job.diedOnPage = row.died_on_page;
  if (row.kind !== null) job.kind = row.kind;
  if (row.units_json !== null) job.units = JSON.parse(row.units_json) as string[];
  return job;
}
