import type { ChatMessage, ChatRole, Source } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import { sql, type Db } from './database.js';

export class SqliteChatRepo implements ChatRepo {
  constructor(private readonly db: Db) {}

  async appendExchange(question: ChatMessage, answer: ChatMessage): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('chat_messages').values([toRow(question), toRow(answer)]).execute();
    });
  }

  async page(sessionId: string, offset: number, limit: number): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('seq')
      .limit(literalLimit(limit))
      .offset(offset)
      .execute();
    return rows.map(fromRow);
  }

  async recent(sessionId: string, limit: number): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('seq', 'desc')
      .limit(literalLimit(limit))
      .execute();
    return rows.reverse().map(fromRow);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const result = await this.db.deleteFrom('chat_messages').where('session_id', '=', sessionId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * The page size written into the SQL rather than bound: SQLite plans with a bound LIMIT's value, so it prepares a
 * statement with one again every time it runs (the statement cache would save nothing). Callers pass a few constants.
 */
function literalLimit(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number ≥ 0, not ${limit}`);
  return sql.lit(limit);
}

function toRow(m: ChatMessage) {
  return {
    id: m.id,
    session_id: m.sessionId,
    role: m.role,
    content: m.content,
    sources_json: m.sources ? JSON.stringify(m.sources) : null,
    created_at: m.createdAt,
  };
}

function fromRow(row: { id: string; session_id: string; role: string; content: string; sources_json: string | null; created_at: string }): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    sessionId: row.session_id,
    role: row.role as ChatRole,
    content: row.content,
    createdAt: row.created_at,
  };
  if (row.sources_json) message.sources = JSON.parse(row.sources_json) as Source[];
  return message;
}
