import type BetterSqlite3 from 'better-sqlite3';
import { KyselyChatRepo } from '../kysely/kysely-chat-repo.js';
import type { SqliteDatabase } from './database.js';

/**
 * The chat repository on the embedded database: kysely's, but a history page's ids and the session's count are read
 * by two prepared statements run directly on the connection. Through kysely (its driver's connection lock, promise
 * chain and row objects) the one joined statement cost ~48 µs a page against ~15 µs for these two (a 20-message page,
 * same machine, CPU time), and a history request is the cheapest and most frequent request there is (issue 48: its
 * throughput against a minimal Koa + jose + better-sqlite3 server). Both run synchronously, one after the other, on
 * the service's one connection, so no write comes between them; nothing on SQLite holds that connection in an open
 * transaction across requests (its transactions are synchronous).
 */
export class SqliteChatRepo extends KyselyChatRepo {
  private readonly sessionCount: BetterSqlite3.Statement;
  /** By page size, written into the SQL (see kysely-chat-repo.ts literalLimit: a bound LIMIT is planned again each time). */
  private readonly pageIds = new Map<number, BetterSqlite3.Statement>();

  constructor(private readonly database: SqliteDatabase) {
    super(database.db);
    this.sessionCount = database.raw.prepare('SELECT message_count FROM sessions WHERE id = ? AND user_id = ?').pluck();
  }

  protected override async ownedPageIds(sessionId: string, userId: string, offset: number, limit: number): Promise<{ ids: string[]; total: number } | null> {
    const total = this.sessionCount.get(sessionId, userId) as number | undefined;
    if (total === undefined) return null;
    return { total, ids: this.pageIdsStatement(limit).all(sessionId, offset) as string[] };
  }

  private pageIdsStatement(limit: number): BetterSqlite3.Statement {
    let statement = this.pageIds.get(limit);
    if (!statement) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number ≥ 0, not ${limit}`);
      statement = this.database.raw.prepare(`SELECT id FROM chat_messages WHERE session_id = ? ORDER BY seq LIMIT ${limit} OFFSET ?`).pluck();
      this.pageIds.set(limit, statement);
    }
    return statement;
  }
}
