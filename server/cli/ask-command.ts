import { passagePlace } from '../../core/rag/place.js';
import { CliError } from './cli-error.js';
import type { DocChatClient } from './doc-chat-client.js';
import { resolveSession } from './sessions.js';

export interface AskOptions {
  institution?: string;
  /** Only these documents of the session, each by ingest id or file name (a name several documents share: all). */
  documents?: string[];
}

/**
 * `doc-chat ask`: the answer, then one line per page (file and page, or the unit of a document without pages: "budget.xlsx,
 * Sheet Q3") it quotes unless the answer lists them itself, then the other pages found.
 */
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
  // Several passages of one page are one source to the reader; pages found but not quoted come after, apart.
  const pages = (list: typeof sources) => new Set(list.map((s) => `  ${passagePlace(s)}`));
  const quoted = pages(sources.filter((s) => s.cited !== false));
  const others = [...pages(sources.filter((s) => s.cited === false))].filter((line) => !quoted.has(line));
  // An answer that ends on its own numbered "Sources: [1] a.pdf, page 2 …" has listed the quoted pages already.
  const listsItsSources = /(?:^|\n)Sources: \[1\][^\n]*$/.test(answer.trim());
  if (quoted.size === 0) lines.push('No sources.');
  else if (!listsItsSources) lines.push('Sources:', ...quoted);
  if (others.length > 0) lines.push('Also found, not quoted:', ...others);
  return `${lines.join('\n')}\n`;
}
