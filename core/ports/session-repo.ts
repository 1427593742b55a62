import type { Session } from '../domain/model.js';

export interface SessionRepo {
  create(session: Session): Promise<void>;
  findById(id: string): Promise<Session | null>;
  /** Oldest first. */
  listByUser(userId: string): Promise<Session[]>;
  /** Returns the updated session, or null when it does not exist. */
  rename(id: string, label: string): Promise<Session | null>;
  /** Returns false when it did not exist. */
  delete(id: string): Promise<boolean>;
}
