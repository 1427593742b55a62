import { loadOwnedSession } from '../domain/ownership.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { StorageSpace } from '../ports/storage-space.js';
import { UNWATCHED_SPACE, withReleasedReserve } from './space-reserve.js';

/**
 * Deletes every chat message of a session; the session and its documents stay. On a full disk it uses the space held
 * back for deletions.
 */
export class ClearChat {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly chats: ChatRepo,
    private readonly space: StorageSpace = UNWATCHED_SPACE,
  ) {}

  async execute(input: { userId: string; sessionId: string }): Promise<void> {
    await loadOwnedSession(this.sessions, input.sessionId, input.userId);
    await withReleasedReserve(this.space, () => this.chats.deleteBySession(input.sessionId));
  }
}
