import type { SessionRepo } from '../ports/session-repo.js';
import { NotFoundError, SESSION_NOT_FOUND } from './errors.js';
import type { Session } from './model.js';

/** The session when it exists and belongs to the user; otherwise the same NotFoundError, so foreign looks like missing. */
export async function loadOwnedSession(sessions: SessionRepo, sessionId: string, userId: string): Promise<Session> {
  const session = await sessions.findById(sessionId);
  if (!session || session.userId !== userId) throw new NotFoundError(SESSION_NOT_FOUND);
  return session;
}
