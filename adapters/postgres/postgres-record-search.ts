import { sql } from 'kysely';
import type { ChatRole } from '../../core/domain/model.js';
import type { RecordMatches, RecordSearch, RecordSearchQuery } from '../../core/ports/record-search.js';
import type { PostgresDatabase } from './database.js';

/** ts_headline's options: one fragment of about 24 words, no markup around the matched words. */
const HEADLINE = 'StartSel="", StopSel="", MaxWords=24, MinWords=12, MaxFragments=1, FragmentDelimiter=" … "';

/**
 * Search over session names and messages with PostgreSQL's full text (GIN indexes of migration 005, English stemming):
 * plainto_tsquery, so every content word of the query must be there; best ts_rank first. The user's rows only: the
 * join on their sessions narrows what the indexes found. The excerpt (ts_headline) is made for the returned rows only.
 */
export class PostgresRecordSearch implements RecordSearch {
  constructor(private readonly database: Pick<PostgresDatabase, 'db'>) {}

  async search(query: RecordSearchQuery): Promise<RecordMatches> {
    const { db } = this.database;
    const tsquery = sql`plainto_tsquery('english', ${query.text})`;
    const sessions = await sql<RecordMatches['sessions'][number]>`
      SELECT s.id AS "sessionId", s.label, s.created_at AS "createdAt"
      FROM sessions s
      WHERE s.user_id = ${query.userId} AND to_tsvector('english', s.label) @@ ${tsquery}
      ORDER BY ts_rank(to_tsvector('english', s.label), ${tsquery}) DESC, s.created_at DESC
      LIMIT ${query.limit}`.execute(db);
    const messages = await sql<{ messageId: string; sessionId: string; sessionLabel: string; role: ChatRole; excerpt: string; createdAt: string }>`
      WITH best AS MATERIALIZED (
        SELECT m.seq, m.id, m.session_id, s.label, m.role, m.content, m.created_at,
          ts_rank(to_tsvector('english', m.content), ${tsquery}) AS rank
        FROM chat_messages m JOIN sessions s ON s.id = m.session_id
        WHERE s.user_id = ${query.userId} AND to_tsvector('english', m.content) @@ ${tsquery}
        ORDER BY rank DESC, m.seq DESC
        LIMIT ${query.limit}
      )
      SELECT id AS "messageId", session_id AS "sessionId", label AS "sessionLabel", role,
        ts_headline('english', content, ${tsquery}, ${HEADLINE}) AS excerpt, created_at AS "createdAt"
      FROM best ORDER BY rank DESC, seq DESC`.execute(db);
    return { sessions: sessions.rows, messages: messages.rows };
  }
}
