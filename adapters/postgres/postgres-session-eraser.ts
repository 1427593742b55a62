import type { ErasedUploads, SessionEraser } from '../../core/ports/session-eraser.js';
import type { PostgresDatabase } from './database.js';

/** Deletes a session's rows (or some of its documents' jobs) (messages, jobs, the session) and settles its upload records in one transaction. */
export class PostgresSessionEraser implements SessionEraser {
  constructor(private readonly database: PostgresDatabase) {}

  async erase(sessionId: string, uploads: ErasedUploads): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('chat_messages').where('session_id', '=', sessionId).execute();
      await trx.deleteFrom('ingest_jobs').where('session_id', '=', sessionId).execute();
      if (uploads.remove.length > 0) await trx.deleteFrom('uploads').where('blob_key', 'in', [...uploads.remove]).execute();
      if (uploads.release.length > 0) {
        await trx.updateTable('uploads').set({ ingested_at: null, etag: null }).where('blob_key', 'in', [...uploads.release]).execute();
      }
      // Last: the session row is what a retry looks up.
      await trx.deleteFrom('sessions').where('id', '=', sessionId).execute();
    });
  }

  async eraseDocuments(sessionId: string, jobIds: readonly string[], uploads: ErasedUploads): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      if (jobIds.length > 0) await trx.deleteFrom('ingest_jobs').where('session_id', '=', sessionId).where('id', 'in', [...jobIds]).execute();
      if (uploads.remove.length > 0) await trx.deleteFrom('uploads').where('blob_key', 'in', [...uploads.remove]).execute();
      if (uploads.release.length > 0) {
        await trx.updateTable('uploads').set({ ingested_at: null, etag: null }).where('blob_key', 'in', [...uploads.release]).execute();
      }
    });
  }
}
