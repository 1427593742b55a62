// '.js': the unit tests (test/unit/web) compile this file under the service's Node resolution too.
import { placeOf } from './place.js';
import type { ChatMessage, Source } from './types.js';

/**
 * An answer as text to paste elsewhere: its own words, and its sources. The extractive answerer ends with a
 * "Sources: [1] a.pdf, page 2; …" line; an answer without one (a model's) gets one from the structured sources.
 */
export function answerForCopy(text: string, sources: Source[] = []): string {
  if (/\n\nSources: /.test(text)) return text.trim();
  const cited = sources.filter((s) => s.cited !== false);
  if (cited.length === 0) return text.trim();
  const seen = new Set<string>();
  const listed = cited.flatMap((s) => {
    const key = `${s.ingestId}:${s.page}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [`${s.marker !== undefined ? `[${s.marker}] ` : ''}${placeOf(s)}`];
  });
  return `${text.trim()}\n\nSources: ${listed.join('; ')}`;
}

/** The conversation as Markdown: the session's name, then each question and answer (with its sources) in order. */
export function conversationMarkdown(title: string, messages: ChatMessage[]): string {
  const parts = [`# ${title}`];
  for (const m of messages) {
    if (!m.content) continue;
    const when = m.createdAt ? ` (${m.createdAt})` : '';
    if (m.role === 'user') parts.push(`## Question${when}\n\n${m.content.trim()}`);
    else parts.push(`### Answer\n\n${answerForCopy(m.content, m.sources)}`);
  }
  return `${parts.join('\n\n')}\n`;
}
