import type { Chunk } from '../../core/domain/model.js';
import type { ChunksTable } from './schema.js';

/**
 * A row of the `chunks` table, shared by the lexical indexes (SQLite FTS5, PostgreSQL) and SQLite's dense index: same
 * ids, same metadata.
 */
export type ChunkRow = Omit<ChunksTable, 'rowid' | 'institution'>;

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
