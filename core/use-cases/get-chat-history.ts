import { NotFoundError, SESSION_NOT_FOUND } from '../domain/errors.js';
import { HISTORY_PAGE_SIZE, type ChatMessage } from '../domain/model.js';
import type { ChatRepo } from '../ports/chat-repo.js';

export class GetChatHistory {
  constructor(private readonly chats: ChatRepo) {}

  /** `page` is zero-based; values below 0 read as 0. */
  /** `total`: messages in the session, so a client can open the last page first and page upwards. */
  async execute(input: { userId: string; sessionId: string; page: number }): Promise<{ messages: ChatMessage[]; total: number }> {
    const page = Math.max(0, Math.trunc(input.page));
    // The ownership check is part of the page's read (one statement, not two): a history request is the cheapest and
    // most frequent read, and on a shared database each statement costs a connection checkout and a round trip.
    const result = await this.chats.ownedPage(input.sessionId, input.userId, page * HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE);
    // Missing and foreign look the same, as loadOwnedSession answers them.
    if (!result) throw new NotFoundError(SESSION_NOT_FOUND);
    return result;
  }
}
