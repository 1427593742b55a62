import { LRUCache } from 'lru-cache';
import type { ChatMessage } from '../../core/domain/model.js';

/** Turns whose JSON is kept (≈ 1.5 KB each with their sources: a few MB). */
const DEFAULT_CACHED_TURNS = 4096;

const PAGE_START = Buffer.from('{"success":true,"data":[');
const COMMA = Buffer.from(',');

/**
 * The history page's JSON body, built from each turn's JSON kept as UTF-8 bytes. A turn never changes once written
 * (a session's turns are only appended or deleted together, and ids are never reused), so its bytes are kept by id;
 * a page is then the concatenation of its turns' bytes. Under load, stringifying a ~30 KB page, measuring it and
 * encoding it to UTF-8 for the socket was about half of a history request's time on the request thread.
 * The same body as `JSON.stringify(historyBody(messages, total))`.
 */
export class HistoryPages {
  private readonly turns: LRUCache<string, Buffer>;

  constructor(maxTurns = DEFAULT_CACHED_TURNS) {
    // Least recently used out first: a session read page by page keeps its recent pages' turns.
    this.turns = new LRUCache({ max: maxTurns });
  }

  body(messages: readonly ChatMessage[], total: number): Buffer {
    const parts: Buffer[] = [PAGE_START];
    messages.forEach((message, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(this.turn(message));
    });
    parts.push(Buffer.from(`],"total":${JSON.stringify(total)}}`));
    return Buffer.concat(parts);
  }

  private turn(message: ChatMessage): Buffer {
    let bytes = this.turns.get(message.id);
    if (bytes) return bytes;
    bytes = Buffer.from(JSON.stringify(historyTurn(message)));
    this.turns.set(message.id, bytes);
    return bytes;
  }
}

/** A turn as the history route gives it (docs/api.md): assistant turns carry the sources their answer cited. */
export function historyTurn(m: ChatMessage) {
  return {
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    ...(m.role === 'assistant' && { sources: m.sources ?? [] }),
  };
}

/** The history route's body as an object (what HistoryPages.body serializes). */
export function historyBody(messages: readonly ChatMessage[], total: number) {
  return { success: true, data: messages.map(historyTurn), total };
}
