import type BetterSqlite3 from 'better-sqlite3';
import type { ErasedUploads, SessionEraser } from '../../core/ports/session-eraser.js';
import type { SqliteDatabase } from './database.js';

/** Deletes a session's rows (or some of its documents' jobs) (messages, jobs, the session) and settles its upload records in one transaction. */
export class SqliteSessionEraser implements SessionEraser {
  private readonly eraseTx: (sessionId: string, uploads: ErasedUploads) => void;
  private readonly eraseDocumentsTx: (sessionId: string, jobIds: readonly string[], uploads: ErasedUploads) => void;

  constructor(database: SqliteDatabase) {
    const raw: BetterSqlite3.Database = database.raw;
    const messages = raw.prepare('DELETE FROM chat_messages WHERE session_id = ?');
    const jobs = raw.prepare('DELETE FROM ingest_jobs WHERE session_id = ?');
    const removeUpload = raw.prepare('DELETE FROM uploads WHERE blob_key = ?');
    const releaseUpload = raw.prepare('UPDATE uploads SET ingested_at = NULL, etag = NULL WHERE blob_key = ?');
    const session = raw.prepare('DELETE FROM sessions WHERE id = ?');
    const job = raw.prepare('DELETE FROM ingest_jobs WHERE id = ? AND session_id = ?');
    this.eraseDocumentsTx = raw.transaction((sessionId: string, jobIds: readonly string[], uploads: ErasedUploads) => {
      for (const id of jobIds) job.run(id, sessionId);
      for (const key of uploads.remove) removeUpload.run(key);
      for (const key of uploads.release) releaseUpload.run(key);
    });
    this.eraseTx = raw.transaction((sessionId: string, uploads: ErasedUploads) => {
      messages.run(sessionId);
      jobs.run(sessionId);
      for (const key of uploads.remove) removeUpload.run(key);
      for (const key of uploads.release) releaseUpload.run(key);
      // Last, though inside the transaction it makes no difference: the session row is what a retry looks up.
      session.run(sessionId);
    });
  }

  async erase(sessionId: string, uploads: ErasedUploads): Promise<void> {
    this.eraseTx(sessionId, uploads);
  }

  async eraseDocuments(sessionId: string, jobIds: readonly string[], uploads: ErasedUploads): Promise<void> {
    this.eraseDocumentsTx(sessionId, jobIds, uploads);
  }
}
