import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, type Api } from './api';
import { navigate } from './route';
import type { SearchMatches } from './types';

/** The API's 400s (docs/api.md, search) in people's words; the limit is the API's. */
function problemText(error: unknown): string {
  if (error instanceof ApiError && error.status === 400) {
    return /at most/i.test(error.message) ? 'At most 200 characters' : 'Type what to search for';
  }
  return error instanceof Error ? error.message : String(error);
}

/** Search over the user's past chats: sessions by name, messages by text; each result opens its session. */
export function Search({ api }: { api: Api }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<SearchMatches | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    try {
      setFound(await api.search(query));
      setProblem(undefined);
    } catch (error) {
      setFound(undefined);
      setProblem(problemText(error));
    } finally {
      setBusy(false);
    }
  };

  const empty = found && found.sessions.length === 0 && found.messages.length === 0;
  return (
    <search class="chat-search">
      <form onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <label for="chat-search">Search chats</label>
        <span class="chat-search-row">
          <input id="chat-search" type="search" value={query} aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? 'chat-search-problem' : undefined} onInput={(e) => setQuery(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>Search</button>
        </span>
      </form>
      {/* One live region: the problem, "No chats match", or (for a screen reader) how many were found. */}
      <p role="status" id="chat-search-problem" class={problem ? 'error' : empty ? undefined : 'visually-hidden'}>
        {problem ?? (empty ? 'No chats match' : found ? `${found.sessions.length + found.messages.length} found` : '')}
      </p>
      {found && !empty && (
        <ul aria-label="Search results" class="search-results">
          {found.sessions.map((match) => (
            <li key={`s-${match.sessionId}`}>
              <ResultLink sessionId={match.sessionId}>{match.label}</ResultLink>
            </li>
          ))}
          {found.messages.map((match) => (
            <li key={`m-${match.messageId}`}>
              <ResultLink sessionId={match.sessionId}>
                {match.excerpt} <span class="in-session">in {match.sessionLabel}</span>
              </ResultLink>
            </li>
          ))}
        </ul>
      )}
    </search>
  );
}

function ResultLink({ sessionId, children }: { sessionId: string; children: ComponentChildren }) {
  return (
    <a href={`/sessions/${encodeURIComponent(sessionId)}`} onClick={(e) => { e.preventDefault(); navigate(sessionId); }}>
      {children}
    </a>
  );
}
