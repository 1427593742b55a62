import type { RecordMatches, RecordSearch, RecordSearchQuery } from '../../core/ports/record-search.js';
import { searchWords, termKey, truncateWords, wordTokens } from '../../core/rag/text.js';
import type { InMemoryChatRepo, InMemorySessionRepo } from './in-memory-repos.js';

/**
 * RecordSearch over the in-memory repos' rows: a session or message matches when it holds every content word of the
 * query (compared by stem); more matched words per length first, then newest. The excerpt is the text's start.
 */
export class InMemoryRecordSearch implements RecordSearch {
  constructor(
    private readonly sessions: InMemorySessionRepo,
    private readonly chats: InMemoryChatRepo,
  ) {}

  async search(query: RecordSearchQuery): Promise<RecordMatches> {
    const wanted = searchWords(query.text).map(termKey);
    if (wanted.length === 0) return { sessions: [], messages: [] };
    const own = new Map([...this.sessions.rows.values()].filter((s) => s.userId === query.userId).map((s) => [s.id, s]));
    const score = (text: string) => {
      const keys = wordTokens(text).map(termKey);
      return wanted.every((w) => keys.includes(w)) ? keys.filter((k) => wanted.includes(k)).length / keys.length : 0;
    };
    const sessions = [...own.values()]
      .map((s) => ({ s, score: score(s.label) }))
      .filter((m) => m.score > 0)
      .sort((a, b) => b.score - a.score || b.s.createdAt.localeCompare(a.s.createdAt))
      .slice(0, query.limit)
      .map(({ s }) => ({ sessionId: s.id, label: s.label, createdAt: s.createdAt }));
    const messages = this.chats.rows
      .map((m, seq) => ({ m, seq, score: own.has(m.sessionId) ? score(m.content) : 0 }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || b.seq - a.seq)
      .slice(0, query.limit)
      .map(({ m }) => ({
        messageId: m.id, sessionId: m.sessionId, sessionLabel: own.get(m.sessionId)!.label, role: m.role,
        excerpt: truncateWords(m.content, 160), createdAt: m.createdAt,
      }));
    return { sessions, messages };
  }
}
