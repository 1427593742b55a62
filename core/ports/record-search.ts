import type { ChatRole } from '../domain/model.js';

export interface RecordSearchQuery {
  userId: string;
  /** What the user typed: every word of it is looked for (stemmed as the store stems), in any order. */
  text: string;
  /** At most this many sessions, and this many messages. */
  limit: number;
}

export interface SessionMatch {
  sessionId: string;
  label: string;
  createdAt: string;
}

export interface MessageMatch {
  messageId: string;
  sessionId: string;
  sessionLabel: string;
  role: ChatRole;
  /** The words around the match, from the message's text ("…" where it was cut). */
  excerpt: string;
  createdAt: string;
}

export interface RecordMatches {
  sessions: SessionMatch[];
  messages: MessageMatch[];
}

/**
 * Full-text search over one user's records: session names and chat messages, best matches first. Only the user's own
 * sessions and their messages are ever read; another user's words change nothing of the answer.
 */
export interface RecordSearch {
  search(query: RecordSearchQuery): Promise<RecordMatches>;
}
