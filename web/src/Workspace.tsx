import { useEffect, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { Chat } from './Chat';
import { ConfirmDialog } from './ConfirmDialog';
import { Documents } from './Documents';
import { Library } from './Library';
import { navigate, useSelectedSessionId } from './route';
import { SessionList } from './SessionList';
import type { IngestJob, Session } from './types';

/** Signed in: the sessions on the side, the selected session's documents and chat beside them. */
export function Workspace({ api, onSignOut }: { api: Api; onSignOut(): void }) {
  const [sessions, setSessions] = useState<Session[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const selectedId = useSelectedSessionId();
  const selected = sessions?.find((s) => s.id === selectedId);

  const report = (e: unknown) => {
    if (!(e instanceof Unauthorized)) setError(e instanceof Error ? e.message : String(e));
  };

  useEffect(() => {
    api.listSessions().then((list) => setSessions(newestFirst(list)), report);
  }, [api]);

  const create = async () => {
    try {
      const session = await api.createSession('Untitled session');
      setSessions((list) => [session, ...(list ?? [])]);
      navigate(session.id);
    } catch (e) {
      report(e);
    }
  };
  const rename = async (id: string, label: string) => {
    try {
      const renamed = await api.renameSession(id, label);
      setSessions((list) => list?.map((s) => (s.id === id ? { ...s, label: renamed.label } : s)));
      setError(undefined);
    } catch (e) {
      report(e);
    }
  };
  const remove = async (id: string) => {
    try {
      await api.deleteSession(id);
      setSessions((list) => list?.filter((s) => s.id !== id));
      navigate(undefined, true);
    } catch (e) {
      report(e);
    }
  };

  return (
    <div class="workspace">
      <header class="top">
        <span class="brand">doc-chat</span>
        <button type="button" class="link" onClick={onSignOut}>Sign out</button>
      </header>
      <SessionList sessions={sessions} selectedId={selectedId} onCreate={create} onRename={rename} />
      <main class="session">
        {error && <p class="error" role="alert">{error}</p>}
        {selected ? (
          <SessionView key={selected.id} api={api} session={selected} onDelete={() => remove(selected.id)} />
        ) : sessions && selectedId ? (
          <p>This session does not exist or is not yours.</p>
        ) : sessions ? (
          <div class="empty">
            <h1>Chat with your documents</h1>
            <p>Create a session with <strong>New session</strong>, upload PDFs or photographed pages, then ask questions about them.</p>
          </div>
        ) : (
          <p aria-busy="true">Loading sessions…</p>
        )}
      </main>
    </div>
  );
}

function SessionView({ api, session, onDelete }: { api: Api; session: Session; onDelete(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [documents, setDocuments] = useState<IngestJob[]>([]);
  const [library, setLibrary] = useState(false);
  /** Bumped when a library document was added: the document list is read again. */
  const [added, setAdded] = useState(0);
  return (
    <>
      <div class="session-head">
        <h1>{session.label}</h1>
        <span class="session-actions">
          <button type="button" onClick={() => setLibrary(true)}>Library</button>
          <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete session</button>
        </span>
      </div>
      {library && <Library api={api} sessionId={session.id} onAdded={() => setAdded((n) => n + 1)} onClose={() => setLibrary(false)} />}
      {confirming && (
        <ConfirmDialog
          title="Delete this session?"
          text={`“${session.label}”, its documents and its conversation are deleted for good.`}
          confirm="Delete"
          onConfirm={() => { setConfirming(false); onDelete(); }}
          onCancel={() => setConfirming(false)}
        />
      )}
      <div class="panes">
        <Documents key={added} api={api} sessionId={session.id} onChange={setDocuments} />
        <Chat key={session.id} api={api} sessionId={session.id} documents={documents} />
      </div>
    </>
  );
}

const newestFirst = (list: Session[]) => [...list].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
