import type { Session } from '../../core/domain/model.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';
import type { Selectable } from 'kysely';
import { preparedQuery } from './prepared-query.js';
import type { Db, SessionsTable } from './schema.js';

export class KyselySessionRepo implements SessionRepo {
  /** Every request about a session reads it (ownership): compiled once. */
  private readonly byId;

  /**
   * `reads`: where findById runs (the ownership check of every request); by default `db`. On PostgreSQL the pool of
   * cheap reads, beside the history page, so neither queues behind questions' record reads and appends.
   */
  constructor(
    private readonly db: Db,
    private readonly reads: Db = db,
  ) {
    this.byId = preparedQuery(1, (id: string) => db.selectFrom('sessions').selectAll().where('id', '=', id));
  }

  async create(session: Session): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ id: session.id, label: session.label, user_id: session.userId, created_at: session.createdAt })
      .execute();
  }

  async findById(id: string): Promise<Session | null> {
    const [row] = (await this.reads.executeQuery(this.byId(id))).rows;
    return row ? toSession(row) : null;
  }

  async listByUser(userId: string): Promise<Session[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toSession);
  }

  async rename(id: string, label: string): Promise<Session | null> {
    const row = await this.db.updateTable('sessions').set({ label }).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? toSession(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

function toSession(row: Selectable<SessionsTable>): Session {
  return { id: row.id, label: row.label, userId: row.user_id, createdAt: row.created_at };
}
