import { HISTORY_PAGE_SIZE, type ChatMessage } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { SessionRepo } from '../ports/session-repo.js';

export class GetChatHistory {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly chats: ChatRepo,
  ) {}

  /** `page` is zero-based; values below 0 read as 0. */
  /** `total`: messages in the session, so a client can open the last page first and page upwards. */
  async execute(input: { userId: string; sessionId: string; page: number }): Promise<{ messages: ChatMessage[]; total: number }> {
    const page = Math.max(0, Math.trunc(input.page));
    // The ownership check and the page are read at once (one round trip of waiting, not two): the page is returned only
    // when the session is the user's, so reading it first reveals nothing.
    const [, result] = await Promise.all([
      loadOwnedSession(this.sessions, input.sessionId, input.userId),
      this.chats.pageWithTotal(input.sessionId, page * HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE),
    ]);
    return result;
  }
}
