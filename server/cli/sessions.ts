import { CliError } from './cli-error.js';
import type { DocChatClient, SessionJson } from './doc-chat-client.js';

/** The service's session ids are UUIDs: a value of that shape is never taken for a new session's label. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The user's session whose id, else whose label, is `idOrLabel`. With `createMissing`, a label no session has is
 * created; an id-shaped value never is. Two sessions with the label: an error asking for the id.
 */
export async function resolveSession(
  client: DocChatClient,
  idOrLabel: string,
  options: { createMissing: boolean },
): Promise<{ session: SessionJson; created: boolean }> {
  const sessions = await client.listSessions();
  const byId = sessions.find((s) => s.id === idOrLabel);
  if (byId) return { session: byId, created: false };
  const byLabel = sessions.filter((s) => s.label === idOrLabel);
  if (byLabel.length > 1) {
    throw new CliError(`${byLabel.length} sessions are labelled "${idOrLabel}": give the session id (${byLabel.map((s) => s.id).join(', ')})`);
  }
  if (byLabel.length === 1) return { session: byLabel[0], created: false };
  if (options.createMissing && !SESSION_ID.test(idOrLabel)) return { session: await client.createSession(idOrLabel), created: true };
  throw new CliError(`unknown session: no session has the id or label "${idOrLabel}"`);
}
