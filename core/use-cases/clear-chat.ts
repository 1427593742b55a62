import { loadOwnedSession } from '../domain/ownership.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';

/** Deletes every chat message of a session; the session and its documents stay. */
export class ClearChat {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly chats: ChatRepo,
  ) {}

  async execute(input: { userId: string; sessionId: string }): Promise<void> {
    await loadOwnedSession(this.sessions, input.sessionId, input.userId);
    await this.chats.deleteBySession(input.sessionId);
  }
}
