import { sql, type CompiledQuery, type Selectable } from 'kysely';
import type { ChatMessage, ChatRole, Source } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import { preparedQuery } from './prepared-query.js';
import type { ChatMessagesTable, Db } from './schema.js';

export class KyselyChatRepo implements ChatRepo {
  /** The history page and the recent turns, read on every history request and question: compiled once per limit. */
  private readonly pages = new Map<number, (sessionId: string, offset: number) => CompiledQuery<ChatMessageRow>>();
  private readonly ownedPages = new Map<number, (sessionId: string, userId: string, offset: number) => CompiledQuery<OwnedPageRow>>();
  private readonly recents = new Map<number, (sessionId: string) => CompiledQuery<ChatMessageRow>>();

  /**
   * `reads`: where the history reads (page, ownedPage, count) run; by default `db`. On PostgreSQL a pool of their
   * own, so a history page never waits for a connection behind questions' record reads and appends.
   */
  constructor(
    private readonly db: Db,
    private readonly reads: Db = db,
  ) {}

  /**
   * One INSERT of both rows: a single statement is atomic on its own (both or neither), so no explicit transaction,
   * whose BEGIN and COMMIT were two more round trips holding a pooled connection on PostgreSQL.
   */
  async appendExchange(question: ChatMessage, answer: ChatMessage): Promise<void> {
    await this.db.insertInto('chat_messages').values([toRow(question), toRow(answer)]).execute();
  }

  async page(sessionId: string, offset: number, limit: number): Promise<ChatMessage[]> {
    let query = this.pages.get(limit);
    if (!query) {
      const literal = literalLimit(limit);
      query = preparedQuery(2, (session: string, skip: number) =>
        this.db.selectFrom('chat_messages').selectAll().where('session_id', '=', session).orderBy('seq').limit(literal).offset(skip),
      );
      this.pages.set(limit, query);
    }
    const { rows } = await this.reads.executeQuery(query(sessionId, offset));
    return rows.map(fromRow);
  }

  /**
   * The session's row (only when it is the user's) with its message count (kept by triggers), and the page left-joined
   * to it: one statement, no counting. No row: the session is missing or foreign; one row with no message: an owned
   * session's empty page.
   */
  async ownedPage(sessionId: string, userId: string, offset: number, limit: number): Promise<{ messages: ChatMessage[]; total: number } | null> {
    let query = this.ownedPages.get(limit);
    if (!query) {
      const literal = literalLimit(limit);
      query = preparedQuery(3, (session: string, user: string, skip: number) =>
        this.reads.selectFrom('sessions')
          .leftJoin(
            (eb) => eb.selectFrom('chat_messages').selectAll().where('session_id', '=', session).orderBy('seq').limit(literal).offset(skip).as('m'),
            (join) => join.onTrue(),
          )
          .selectAll('m')
          .select('sessions.message_count as total')
          .where('sessions.id', '=', session).where('sessions.user_id', '=', user)
          .orderBy('m.seq'),
      );
      this.ownedPages.set(limit, query);
    }
    const { rows } = await this.reads.executeQuery(query(sessionId, userId, offset));
    if (rows.length === 0) return null;
    const messages = rows[0].id === null ? [] : rows.map((row) => fromRow(row as ChatMessageRow));
    return { messages, total: Number(rows[0].total) };
  }

  async recent(sessionId: string, limit: number): Promise<ChatMessage[]> {
    let query = this.recents.get(limit);
    if (!query) {
      const literal = literalLimit(limit);
      query = preparedQuery(1, (session: string) =>
        this.db.selectFrom('chat_messages').selectAll().where('session_id', '=', session).orderBy('seq', 'desc').limit(literal),
      );
      this.recents.set(limit, query);
    }
    const { rows } = await this.db.executeQuery(query(sessionId));
    return rows.reverse().map(fromRow);
  }

  async count(sessionId: string): Promise<number> {
    const row = await this.reads
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

type ChatMessageRow = Selectable<ChatMessagesTable>;
/** A message's columns (null on an owned session's empty page) and the session's count. */
type OwnedPageRow = { [K in keyof ChatMessageRow]: ChatMessageRow[K] | null } & { total: number | string | bigint | null };

function fromRow(row: ChatMessageRow): ChatMessage {
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
