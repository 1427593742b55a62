/** What was issued at POST /api/v1/ingest/upload/url: the key, to whom, for what, until when. */
export interface UploadRecord {
  key: string;
  /** The user the key was issued to: the only one who may ingest it. */
  userId: string;
  contentType: string;
  /** The size the URL was signed for (counted against the user's storage quota). */
  declaredSize: number;
  issuedAt: string;
  /** When the upload URL stops working. A record never ingested by then is swept with its file. */
  expiresAt: string;
  /** Set by the first ingest of the key. */
  ingestedAt?: string;
  /** The object's BlobInfo.etag at first ingest: a later ingest (or read) of a changed object is refused. */
  etag?: string;
}

export interface UploadLimits {
  /** Records not ingested whose URL has not expired. */
  maxPendingUploads: number;
  /** Sum of declaredSize over all the user's records, the new one included. */
  storageQuotaBytes: number;
}

export type ReserveOutcome =
  | { ok: true }
  | { ok: false; reason: 'pending-uploads'; pending: number }
  | { ok: false; reason: 'storage-quota'; storedBytes: number };

/** The registry of issued upload keys. */
export interface UploadRepo {
  /**
   * Records a new upload unless the user is at a limit (pending uploads as of `record.issuedAt`, stored bytes):
   * checked and inserted as one step, so concurrent requests cannot overshoot.
   */
  reserve(record: UploadRecord, limits: UploadLimits): Promise<ReserveOutcome>;
  /** Records unconditionally (the sweep puts back a record whose file it could not remove). */
  create(record: UploadRecord): Promise<void>;
  findByKey(key: string): Promise<UploadRecord | null>;
  /**
   * Marks the key ingested. The first call sets ingestedAt and etag; later calls keep them. Returns the record as
   * stored, or null when there is none (never issued, or swept meanwhile).
   */
  markIngested(key: string, at: string, etag: string | undefined): Promise<UploadRecord | null>;
  /** Records never ingested whose URL expired at or before `now`, oldest expiry first, at most `limit`. */
  listExpiredPending(now: string, limit: number): Promise<UploadRecord[]>;
  /** Deletes the record only while it is still never ingested (the sweep's claim); true when deleted. */
  deletePending(key: string): Promise<boolean>;
}
