import type BetterSqlite3 from 'better-sqlite3';
import type { LeadingChunksQuery } from '../../core/ports/vector-index.js';
import type { ChunkRow } from '../kysely/chunk-rows.js';
import { CHUNK_COLUMNS } from './chunk-rows.js';
import { jobIdSql, tagFilterSql } from './tag-filter-sql.js';

/**
 * The first `perJob` chunk rows of each document of the session, by document then ordinal. Both SQLite indexes keep
 * their chunks in the `chunks` table, so both answer from it (the dense one only for chunks it holds a vector of).
 */
export function leadingChunkRows(raw: BetterSqlite3.Database, query: LeadingChunksQuery, options: { withVectors?: boolean } = {}): ChunkRow[] {
  if (query.perJob < 1 || query.jobIds?.length === 0) return [];
  const tags = tagFilterSql(query.filters, 'c');
  const jobs = jobIdSql(query.jobIds, 'c');
  return raw
    .prepare(
      `SELECT ${CHUNK_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')} FROM chunks c
       ${options.withVectors ? 'JOIN chunk_vectors v ON v.chunk_id = c.id' : ''}
       WHERE c.session_id = @session AND c.ordinal < @perJob ${tags.sql} ${jobs.sql}
       ORDER BY c.job_id, c.ordinal`,
    )
    .all({ ...tags.params, ...jobs.params, session: query.sessionId, perJob: Math.floor(query.perJob) }) as ChunkRow[];
}
