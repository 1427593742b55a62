import { sql, type CompiledQuery, type Selectable } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChatMessage, ChatRole, Source } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import { preparedQuery } from './prepared-query.js';
import type { ChatMessagesTable, Db } from './schema.js';

export class KyselyChatRepo implements ChatRepo {
  /** The history page and the recent turns, read on every history request and question: compiled once per limit. */
  private readonly pages = new Map<number, (sessionId: string, offset: number) => CompiledQuery<ChatMessageRow>>();
  private readonly ownedPages = new Map<number, (sessionId: string, userId: string, offset: number) => CompiledQuery<OwnedPageRow>>();
  private readonly ownedPageIdQueries = new Map<number, (sessionId: string, userId: string, offset: number) => CompiledQuery<OwnedPageIdRow>>();
  /**
   * Turns read before, by id (see `ownedPage`): ≈ 1.5 KB each with their sources, a few MB. Every reader gets the same
   * object, so readers treat it as read-only (as they treat any ChatMessage).
   */
  private readonly turns = new LRUCache<string, ChatMessage>({ max: 4096 });
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
   * First the page's message ids with the session's count, only when the session is the user's (one small statement);
   * the turns themselves come from those read before, since a turn never changes once written (a session's turns are
   * only appended, or deleted all together, and ids are never reused). Only a page with a turn not held yet is read
   * whole. On PostgreSQL under load, reading and parsing the whole ~30 KB page (its sources as JSON) on every history
   * request was most of its cost in the database and in the service. No row: the session is missing or foreign.
   */
  async ownedPage(sessionId: string, userId: string, offset: number, limit: number): Promise<{ messages: ChatMessage[]; total: number } | null> {
    const page = await this.ownedPageIds(sessionId, userId, offset, limit);
    if (!page) return null;
    const messages: ChatMessage[] = [];
    for (const id of page.ids) {
      const turn = this.turns.get(id);
      if (!turn) return this.readOwnedPage(sessionId, userId, offset, limit);
      messages.push(turn);
    }
    return { messages, total: page.total };
  }

  /**
   * The page's message ids (in order) and the session's count, or null when the session is missing or not the user's:
   * one small statement. A dialect's repository may read them its own cheaper way (adapters/sqlite/sqlite-chat-repo.ts).
   */
  protected async ownedPageIds(sessionId: string, userId: string, offset: number, limit: number): Promise<{ ids: string[]; total: number } | null> {
    const { rows } = await this.reads.executeQuery(this.ownedPageIdsQuery(limit)(sessionId, userId, offset));
    if (rows.length === 0) return null;
    return { total: Number(rows[0].total), ids: rows[0].id === null ? [] : rows.map((row) => row.id!) };
  }

  private ownedPageIdsQuery(limit: number) {
    let query = this.ownedPageIdQueries.get(limit);
    if (!query) {
      const literal = literalLimit(limit);
      query = preparedQuery(3, (session: string, user: string, skip: number) =>
        this.reads.selectFrom('sessions')
          .leftJoin(
            (eb) => eb.selectFrom('chat_messages').select(['id', 'seq']).where('session_id', '=', session).orderBy('seq').limit(literal).offset(skip).as('m'),
            (join) => join.onTrue(),
          )
          .select(['m.id', 'sessions.message_count as total'])
          .where('sessions.id', '=', session).where('sessions.user_id', '=', user)
          .orderBy('m.seq'),
      );
      this.ownedPageIdQueries.set(limit, query);
    }
    return query;
  }

  private remember(turn: ChatMessage): ChatMessage {
    this.turns.set(turn.id, turn);
    return turn;
  }

  /** The page's rows and the count in one statement (ownership checked again: the session may be gone since). */
  private async readOwnedPage(sessionId: string, userId: string, offset: number, limit: number): Promise<{ messages: ChatMessage[]; total: number } | null> {
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
    const messages = rows[0].id === null ? [] : rows.map((row) => this.remember(fromRow(row as ChatMessageRow)));
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

type StoredSource = Omit<Source, 'cited'> & { cited?: boolean };

type OwnedPageIdRow = { id: string | null; total: number | string | bigint | null };

function fromRow(row: ChatMessageRow): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    sessionId: row.session_id,
    role: row.role as ChatRole,
    content: row.content,
    createdAt: row.created_at,
  };
  // Answers stored before sources carried `cited` showed every source as cited.
  if (row.sources_json) message.sources = (JSON.parse(row.sources_json) as StoredSource[]).map((s) => ({ ...s, cited: s.cited ?? true }));
  return message;
}
