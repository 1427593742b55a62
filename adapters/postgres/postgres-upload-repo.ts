import { sql } from 'kysely';
import type { ReserveOutcome, UploadLimits, UploadRecord, UploadRepo } from '../../core/ports/upload-repo.js';
import type { UploadsTable } from '../kysely/schema.js';
import type { PostgresDatabase } from './database.js';

/**
 * UploadRepo on PostgreSQL. `reserve` takes a transaction-scoped advisory lock on the user, so two instances
 * reserving for one user at once check and insert one after the other and cannot overshoot a limit together.
 */
export class PostgresUploadRepo implements UploadRepo {
  constructor(private readonly database: PostgresDatabase) {}

  async reserve(record: UploadRecord, limits: UploadLimits): Promise<ReserveOutcome> {
    return this.database.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`uploads:${record.userId}`}))`.execute(trx);
      const { rows } = await sql<{ bytes: string; pending: string }>`
        SELECT coalesce(sum(declared_size), 0) AS bytes,
               count(*) FILTER (WHERE ingested_at IS NULL AND expires_at > ${record.issuedAt}) AS pending
        FROM uploads WHERE user_id = ${record.userId}`.execute(trx);
      const bytes = Number(rows[0].bytes);
      const pending = Number(rows[0].pending);
      if (bytes + record.declaredSize > limits.storageQuotaBytes) return { ok: false, reason: 'storage-quota', storedBytes: bytes };
      if (pending >= limits.maxPendingUploads) return { ok: false, reason: 'pending-uploads', pending };
      await trx.insertInto('uploads').values(toRow(record)).execute();
      return { ok: true } as const;
    });
  }

  async create(record: UploadRecord): Promise<void> {
    await this.database.db.insertInto('uploads').values(toRow(record)).execute();
  }

  async findByKey(key: string): Promise<UploadRecord | null> {
    const row = await this.database.db.selectFrom('uploads').selectAll().where('blob_key', '=', key).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async markIngested(key: string, at: string, etag: string | undefined): Promise<UploadRecord | null> {
    const row = await this.database.db
      .updateTable('uploads')
      .set({ ingested_at: sql`coalesce(ingested_at, ${at})`, etag: sql`coalesce(etag, ${etag ?? null})` })
      .where('blob_key', '=', key)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async listExpiredPending(now: string, limit: number): Promise<UploadRecord[]> {
    const rows = await this.database.db
      .selectFrom('uploads')
      .selectAll()
      .where('ingested_at', 'is', null)
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .orderBy('blob_key')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async deletePending(key: string): Promise<boolean> {
    const result = await this.database.db.deleteFrom('uploads').where('blob_key', '=', key).where('ingested_at', 'is', null).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

function toRow(record: UploadRecord): UploadsTable {
  return {
    blob_key: record.key,
    user_id: record.userId,
    content_type: record.contentType,
    declared_size: record.declaredSize,
    issued_at: record.issuedAt,
    expires_at: record.expiresAt,
    ingested_at: record.ingestedAt ?? null,
    etag: record.etag ?? null,
  };
}

function toRecord(row: UploadsTable): UploadRecord {
  const record: UploadRecord = {
    key: row.blob_key,
    userId: row.user_id,
    contentType: row.content_type,
    // BIGINT arrives as a string from pg.
    declaredSize: Number(row.declared_size),
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
  if (row.ingested_at !== null) record.ingestedAt = row.ingested_at;
  if (row.etag !== null) record.etag = row.etag;
  return record;
}
