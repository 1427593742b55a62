import type BetterSqlite3 from 'better-sqlite3';
import type { JobCopy } from '../../core/ports/vector-index.js';
import type { ChunkRow } from '../kysely/chunk-rows.js';

export const CHUNK_COLUMNS = 'id, session_id, job_id, filename, page, ordinal, text, tags_json';
export const CHUNK_REMOVE_SQL = 'DELETE FROM chunks WHERE id = ?';
export const CHUNK_INSERT_SQL = `INSERT INTO chunks (${CHUNK_COLUMNS}, institution)
  VALUES (@id, @session_id, @job_id, @filename, @page, @ordinal, @text, @tags_json, @institution)`;

/**
 * Statements that replace a chunk row. Replacing is DELETE + INSERT, never UPDATE: the FTS5 triggers keep the full-text
 * index in step only on insert and delete.
 */
export function chunkRowWriter(raw: BetterSqlite3.Database) {
  const remove = raw.prepare(CHUNK_REMOVE_SQL);
  const insert = raw.prepare(CHUNK_INSERT_SQL);
  return (row: ChunkRow, institution: string | null) => {
    remove.run(row.id);
    insert.run({ ...row, institution });
  };
}

/**
 * Copies a job's chunk rows as another job's, in one statement (the FTS5 triggers index the new rows). A row the target
 * already has is kept (INSERT OR IGNORE fires no trigger for it): the lexical and the dense index both copy rows, into
 * the one `chunks` table they share, and a repeated copy adds nothing.
 */
export function copyChunkRows(raw: BetterSqlite3.Database, copy: JobCopy): void {
  raw
    .prepare(
      `INSERT OR IGNORE INTO chunks (${CHUNK_COLUMNS}, institution)
       SELECT @to || ':' || ordinal, @session, @to, filename, page, ordinal, text, tags_json, institution
       FROM chunks WHERE job_id = @from ORDER BY ordinal`,
    )
    .run({ from: copy.fromJobId, to: copy.toJobId, session: copy.toSessionId });
}
