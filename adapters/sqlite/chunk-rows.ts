import type BetterSqlite3 from 'better-sqlite3';
import type { Chunk } from '../../core/domain/model.js';
import type { ChunksTable } from './database.js';

/** A row of the `chunks` table, shared by the lexical (FTS5) and dense indexes: same ids, same metadata. */
export type ChunkRow = Omit<ChunksTable, 'rowid' | 'institution'>;

export const CHUNK_COLUMNS = 'id, session_id, job_id, filename, page, ordinal, text, tags_json';

export function toChunkRow(c: Chunk): ChunkRow {
  return {
    id: c.id,
    session_id: c.sessionId,
    job_id: c.jobId,
    filename: c.filename,
    page: c.page,
    ordinal: c.ordinal,
    text: c.text,
    tags_json: JSON.stringify(c.tags),
  };
}

export function toChunk(row: ChunkRow): Chunk {
  return {
    id: row.id,
    sessionId: row.session_id,
    jobId: row.job_id,
    filename: row.filename,
    page: row.page,
    ordinal: row.ordinal,
    text: row.text,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
  };
}

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
