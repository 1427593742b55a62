import type { ReserveOutcome, UploadLimits, UploadRecord, UploadRepo } from '../../core/ports/upload-repo.js';

const copy = <T>(value: T): T => structuredClone(value);

/** UploadRepo in memory. Each method runs without awaiting in between, so it is as atomic as SQLite's. */
export class InMemoryUploadRepo implements UploadRepo {
  readonly rows = new Map<string, UploadRecord>();

  async reserve(record: UploadRecord, limits: UploadLimits): Promise<ReserveOutcome> {
    const mine = [...this.rows.values()].filter((r) => r.userId === record.userId);
    const storedBytes = mine.reduce((sum, r) => sum + r.declaredSize, 0);
    if (storedBytes + record.declaredSize > limits.storageQuotaBytes) return { ok: false, reason: 'storage-quota', storedBytes };
    const pending = mine.filter((r) => r.ingestedAt === undefined && r.expiresAt > record.issuedAt).length;
    if (pending >= limits.maxPendingUploads) return { ok: false, reason: 'pending-uploads', pending };
    this.insert(record);
    return { ok: true };
  }

  async create(record: UploadRecord): Promise<void> {
    this.insert(record);
  }

  async findByKey(key: string): Promise<UploadRecord | null> {
    const r = this.rows.get(key);
    return r ? copy(r) : null;
  }

  async markIngested(key: string, at: string, etag: string | undefined): Promise<UploadRecord | null> {
    const r = this.rows.get(key);
    if (!r) return null;
    r.ingestedAt ??= at;
    if (r.etag === undefined && etag !== undefined) r.etag = etag;
    return copy(r);
  }

  async listExpiredPending(now: string, limit: number): Promise<UploadRecord[]> {
    return [...this.rows.values()]
      .filter((r) => r.ingestedAt === undefined && r.expiresAt <= now)
      .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.key.localeCompare(b.key))
      .slice(0, limit)
      .map(copy);
  }

  async deletePending(key: string): Promise<boolean> {
    const r = this.rows.get(key);
    return r !== undefined && r.ingestedAt === undefined && this.rows.delete(key);
  }

  private insert(record: UploadRecord): void {
    if (this.rows.has(record.key)) throw new Error(`duplicate upload key ${record.key}`);
    this.rows.set(record.key, copy(record));
  }
}
