import type { DocChatClient } from './doc-chat-client.js';
import { resolveSession } from './sessions.js';

/** `doc-chat ask`: the answer, then one line per source (file and page) it was drawn from. */
export async function ask(client: DocChatClient, sessionIdOrLabel: string, question: string, institution?: string): Promise<string> {
  const { session } = await resolveSession(client, sessionIdOrLabel, { createMissing: false });
  const { answer, sources } = await client.ask(session.id, question, institution);
  const lines = [answer.trim(), ''];
  if (sources.length === 0) lines.push('No sources.');
  // Several passages of one page are one source to the reader.
  else lines.push('Sources:', ...new Set(sources.map((s) => `  ${s.filename}, page ${s.page}`)));
  return `${lines.join('\n')}\n`;
}
