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
    await loadOwnedSession(this.sessions, input.sessionId, input.userId);
    const page = Math.max(0, Math.trunc(input.page));
    const [messages, total] = await Promise.all([
      this.chats.page(input.sessionId, page * HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE),
      this.chats.count(input.sessionId),
    ]);
    return { messages, total };
  }
}
