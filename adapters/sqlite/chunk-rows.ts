import type BetterSqlite3 from 'better-sqlite3';
import type { ChunkRow } from '../kysely/chunk-rows.js';

export const CHUNK_COLUMNS = 'id, session_id, job_id, filename, page, ordinal, text, tags_json';

/**
 * Statements that replace a chunk row. Replacing is DELETE + INSERT, never UPDATE: the FTS5 triggers keep the full-text
 * index in step only on insert and delete.
 */
export function chunkRowWriter(raw: BetterSqlite3.Database) {
  const remove = raw.prepare('DELETE FROM chunks WHERE id = ?');
  const insert = raw.prepare(
    `INSERT INTO chunks (${CHUNK_COLUMNS}, institution)
     VALUES (@id, @session_id, @job_id, @filename, @page, @ordinal, @text, @tags_json, @institution)`,
  );
  return (row: ChunkRow, institution: string | null) => {
    remove.run(row.id);
    insert.run({ ...row, institution });
  };
}
