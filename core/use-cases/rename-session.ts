import { NotFoundError, SESSION_NOT_FOUND } from '../domain/errors.js';
import type { Session } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import { normalizeLabel } from '../domain/validation.js';
import type { SessionRepo } from '../ports/session-repo.js';

export class RenameSession {
  constructor(private readonly sessions: SessionRepo) {}

  async execute(input: { userId: string; sessionId: string; label: string }): Promise<Session> {
    const label = normalizeLabel(input.label);
    await loadOwnedSession(this.sessions, input.sessionId, input.userId);
    const renamed = await this.sessions.rename(input.sessionId, label);
    // Deleted between the check and the update.
    if (!renamed) throw new NotFoundError(SESSION_NOT_FOUND);
    return renamed;
  }
}
