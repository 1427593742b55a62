import type BetterSqlite3 from 'better-sqlite3';
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
