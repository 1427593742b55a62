import type { Session } from '../domain/model.js';
import type { SessionRepo } from '../ports/session-repo.js';

export class ListSessions {
  constructor(private readonly sessions: SessionRepo) {}

  execute(input: { userId: string }): Promise<Session[]> {
    return this.sessions.listByUser(input.userId);
  }
}
