import type { ChatMessage } from '../domain/model.js';

/** Chat messages live apart from sessions: they grow without bound and are paged, sessions are small and listed whole. */
export interface ChatRepo {
  /** Stores a question and its answer together: both or neither. */
  appendExchange(question: ChatMessage, answer: ChatMessage): Promise<void>;
  /** Oldest first; `offset` and `limit` count messages. */
  page(sessionId: string, offset: number, limit: number): Promise<ChatMessage[]>;
  /** The last `limit` messages, oldest first (for follow-up questions). */
  recent(sessionId: string, limit: number): Promise<ChatMessage[]>;
  /**
   * A history request's whole read: the page, the session's message count, and whether the session exists and is
   * `userId`'s (null when not: missing and foreign alike). One statement where the store can, since every history
   * request needs all three.
   */
  ownedPage(sessionId: string, userId: string, offset: number, limit: number): Promise<{ messages: ChatMessage[]; total: number } | null>;
  /** How many messages the session holds (a client pages from the last one upwards). */
  count(sessionId: string): Promise<number>;
  /** Returns how many were removed. */
  deleteBySession(sessionId: string): Promise<number>;
}
