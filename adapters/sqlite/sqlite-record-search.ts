import type { ChatRole } from '../../core/domain/model.js';
import type { RecordMatches, RecordSearch, RecordSearchQuery } from '../../core/ports/record-search.js';
import { searchWords } from '../../core/rag/text.js';
import type { SqliteDatabase } from './database.js';

/** Words of the excerpt around a message's match (FTS5 snippet()). */
const EXCERPT_WORDS = 24;

/**
 * Search over session names and messages with FTS5 (tables and triggers of migration 010): every content word of the
 * query must be there, as its stem (porter), best BM25 first. The match runs over every user's rows and the join
 * keeps the user's own; bm25() weighs words over the whole table, so another user's words may reorder (never add
 * to) a user's matches, which tells nothing of what they hold.
 */
export class SqliteRecordSearch implements RecordSearch {
  constructor(private readonly database: Pick<SqliteDatabase, 'raw'>) {}

  async search(query: RecordSearchQuery): Promise<RecordMatches> {
    const match = matchAll(query.text);
    if (!match) return { sessions: [], messages: [] };
    const params = { match, user: query.userId, limit: query.limit };
    const raw = this.database.raw;
    const sessions = raw
      .prepare(
        `SELECT s.id AS sessionId, s.label, s.created_at AS createdAt
         FROM sessions_fts f CROSS JOIN sessions s ON s.id = f.session_id
         WHERE sessions_fts MATCH @match AND s.user_id = @user
         ORDER BY f.rank, s.created_at DESC LIMIT @limit`,
      )
      .all(params) as RecordMatches['sessions'];
    const messages = raw
      .prepare(
        `SELECT m.id AS messageId, m.session_id AS sessionId, s.label AS sessionLabel, m.role,
           snippet(chat_messages_fts, 0, '', '', '…', ${EXCERPT_WORDS}) AS excerpt, m.created_at AS createdAt
         FROM chat_messages_fts f CROSS JOIN chat_messages m ON m.seq = f.rowid JOIN sessions s ON s.id = m.session_id
         WHERE chat_messages_fts MATCH @match AND s.user_id = @user
         ORDER BY f.rank, m.seq DESC LIMIT @limit`,
      )
      .all(params) as { messageId: string; sessionId: string; sessionLabel: string; role: ChatRole; excerpt: string; createdAt: string }[];
    return { sessions, messages };
  }
}

/** `"w1" AND "w2" …`: each word quoted, so FTS5 syntax typed in the box (NEAR, *, :, -) is taken literally. */
function matchAll(text: string): string | null {
  const words = searchWords(text).slice(0, 32);
  return words.length === 0 ? null : words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');
}
