import { CliError } from './cli-error.js';
import type { DocChatClient } from './doc-chat-client.js';
import { resolveSession } from './sessions.js';

export interface AskOptions {
  institution?: string;
  /** Only these documents of the session, each by ingest id or file name (a name several documents share: all). */
  documents?: string[];
}

/** `doc-chat ask`: the answer, then one line per source (file and page) it was drawn from. */
export async function ask(client: DocChatClient, sessionIdOrLabel: string, question: string, options: AskOptions = {}): Promise<string> {
  const { session } = await resolveSession(client, sessionIdOrLabel, { createMissing: false });
  let documents: string[] | undefined;
  if (options.documents?.length) {
    const known = await client.documents(session.id);
    documents = options.documents.flatMap((wanted) => {
      const ids = known.filter((job) => job.id === wanted || job.filename === wanted).map((job) => job.id);
      if (ids.length === 0) throw new CliError(`unknown document: session "${session.label}" has no document with the id or file name "${wanted}"`);
      return ids;
    });
  }
  const { answer, sources } = await client.ask(session.id, question, { institution: options.institution, documents });
  const lines = [answer.trim(), ''];
  if (sources.length === 0) lines.push('No sources.');
  // Several passages of one page are one source to the reader.
  else lines.push('Sources:', ...new Set(sources.map((s) => `  ${s.filename}, page ${s.page}`)));
  return `${lines.join('\n')}\n`;
}
