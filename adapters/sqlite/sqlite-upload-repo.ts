import type BetterSqlite3 from 'better-sqlite3';
import type { ReserveOutcome, UploadLimits, UploadRecord, UploadRepo } from '../../core/ports/upload-repo.js';
import type { UploadsTable } from '../kysely/schema.js';
import type { SqliteDatabase } from './database.js';

/** UploadRepo on SQLite. `reserve` runs its checks and the insert in one synchronous transaction. */
export class SqliteUploadRepo implements UploadRepo {
  private readonly raw: BetterSqlite3.Database;
  private readonly reserveTx: BetterSqlite3.Transaction<(record: UploadRecord, limits: UploadLimits) => ReserveOutcome>;

  constructor(database: SqliteDatabase) {
    this.raw = database.raw;
    const usage = this.raw.prepare(
      `SELECT coalesce(sum(declared_size), 0) AS bytes,
              coalesce(sum(ingested_at IS NULL AND expires_at > @now), 0) AS pending
       FROM uploads WHERE user_id = @userId`,
    );
    this.reserveTx = this.raw.transaction((record: UploadRecord, limits: UploadLimits): ReserveOutcome => {
      const { bytes, pending } = usage.get({ userId: record.userId, now: record.issuedAt }) as { bytes: number; pending: number };
      if (bytes + record.declaredSize > limits.storageQuotaBytes) return { ok: false, reason: 'storage-quota', storedBytes: bytes };
      if (pending >= limits.maxPendingUploads) return { ok: false, reason: 'pending-uploads', pending };
      this.insert(record);
      return { ok: true };
    });
  }

  async reserve(record: UploadRecord, limits: UploadLimits): Promise<ReserveOutcome> {
    // IMMEDIATE: the write lock is taken before the usage is read, so another process cannot slip in between.
    return this.reserveTx.immediate(record, limits);
  }

  async create(record: UploadRecord): Promise<void> {
    this.insert(record);
  }

  async findByKey(key: string): Promise<UploadRecord | null> {
    const row = this.raw.prepare('SELECT * FROM uploads WHERE blob_key = ?').get(key) as UploadsTable | undefined;
    return row ? toRecord(row) : null;
  }

  async markIngested(key: string, at: string, etag: string | undefined): Promise<UploadRecord | null> {
    const row = this.raw
      .prepare(
        `UPDATE uploads SET ingested_at = coalesce(ingested_at, @at), etag = coalesce(etag, @etag)
         WHERE blob_key = @key RETURNING *`,
      )
      .get({ key, at, etag: etag ?? null }) as UploadsTable | undefined;
    return row ? toRecord(row) : null;
  }

  async listExpiredPending(now: string, limit: number): Promise<UploadRecord[]> {
    const rows = this.raw
      .prepare('SELECT * FROM uploads WHERE ingested_at IS NULL AND expires_at <= ? ORDER BY expires_at, blob_key LIMIT ?')
      .all(now, limit) as UploadsTable[];
    return rows.map(toRecord);
  }

  async deletePending(key: string): Promise<boolean> {
    return this.raw.prepare('DELETE FROM uploads WHERE blob_key = ? AND ingested_at IS NULL').run(key).changes > 0;
  }

  private insert(record: UploadRecord): void {
    this.raw
      .prepare(
        `INSERT INTO uploads (blob_key, user_id, content_type, declared_size, issued_at, expires_at, ingested_at, etag)
         VALUES (@key, @userId, @contentType, @declaredSize, @issuedAt, @expiresAt, @ingestedAt, @etag)`,
      )
      .run({ ...record, ingestedAt: record.ingestedAt ?? null, etag: record.etag ?? null });
  }
}

function toRecord(row: UploadsTable): UploadRecord {
  const record: UploadRecord = {
    key: row.blob_key,
    userId: row.user_id,
    contentType: row.content_type,
    declaredSize: row.declared_size,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
  if (row.ingested_at !== null) record.ingestedAt = row.ingested_at;
  if (row.etag !== null) record.etag = row.etag;
  return record;
}
