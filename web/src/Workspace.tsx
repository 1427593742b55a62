import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { broadcast, useBroadcast } from './broadcast';
import { Chat } from './Chat';
import { ConfirmDialog } from './ConfirmDialog';
import { Documents } from './Documents';
import { shortName } from './names';
import { Library } from './Library';
import { navigate, useSelectedSessionId } from './route';
import { Search } from './Search';
import { SessionList } from './SessionList';
import { hasNoPageImages } from './place';
import { SourceDialog } from './SourceDialog';
import { UnitSourceDialog } from './UnitSourceDialog';
import type { CitedPage, IngestJob, Session } from './types';

export const UNTITLED = 'Untitled session';
/** Which panel a phone shows over the chat (wide screens show them all). */
type Drawer = 'sessions' | 'documents' | undefined;

/**
 * Signed in: the sessions on the side, the selected session's documents and chat beside them. On a phone the chat is
 * the screen, the sessions and documents open over it from the top bar. Other tabs hear of sessions made, renamed or
 * deleted here (BroadcastChannel), and this tab of theirs.
 */
export function Workspace({ api, onSignOut }: { api: Api; onSignOut(): void }) {
  const [sessions, setSessions] = useState<Session[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [drawer, setDrawer] = useState<Drawer>();
  const selectedId = useSelectedSessionId();
  const selected = sessions?.find((s) => s.id === selectedId);

  const report = (e: unknown) => {
    if (!(e instanceof Unauthorized)) setError(e instanceof Error ? e.message : String(e));
  };
  const load = () => api.listSessions().then((list) => setSessions(newestFirst(list)), report);

  useEffect(() => void load(), [api]);
  useBroadcast((message) => message.kind === 'sessions' && void load());
  // A session chosen from the phone's menu is what the reader wants to see: the menu closes.
  useEffect(() => setDrawer((open) => (open === 'sessions' ? undefined : open)), [selectedId]);

  const create = async () => {
    try {
      const session = await api.createSession(UNTITLED);
      setSessions((list) => [session, ...(list ?? [])]);
      broadcast({ kind: 'sessions' });
      navigate(session.id);
    } catch (e) {
      report(e);
    }
  };
  const rename = async (id: string, label: string) => {
    try {
      const renamed = await api.renameSession(id, label);
      setSessions((list) => list?.map((s) => (s.id === id ? { ...s, label: renamed.label } : s)));
      broadcast({ kind: 'sessions' });
      setError(undefined);
    } catch (e) {
      report(e);
    }
  };
  const remove = async (id: string) => {
    try {
      await api.deleteSession(id);
      setSessions((list) => list?.filter((s) => s.id !== id));
      broadcast({ kind: 'sessions' });
      navigate(undefined, true);
    } catch (e) {
      report(e);
    }
  };
  // A session still untitled takes its name from its first document or question (renamed as ever after). Named once:
  // three files chosen together are three first documents until the rename has come back.
  const named = useRef(new Set<string>());
  const nameIfUntitled = (id: string, name: string) => {
    const session = sessions?.find((s) => s.id === id);
    const label = shortName(name);
    if (session?.label !== UNTITLED || !label || named.current.has(id)) return;
    named.current.add(id);
    void rename(id, label);
  };
  const toggle = (which: Exclude<Drawer, undefined>) => setDrawer((open) => (open === which ? undefined : which));
  // Escape closes a phone's open menu and gives the focus back to its button.
  useEffect(() => {
    if (!drawer) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      setDrawer(undefined);
      document.querySelector<HTMLElement>(`button[aria-controls="${drawer}"]`)?.focus();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [drawer]);

  return (
    <div class={`workspace${drawer ? ` show-${drawer}` : ''}`}>
      <a class="skip-link" href="#question" onClick={(e) => {
        const box = document.getElementById('question');
        if (!box) return;
        e.preventDefault();
        setDrawer(undefined);
        box.focus();
      }}>Skip to question</a>
      <header class="top">
        <span class="brand">doc-chat</span>
        <div class="top-actions">
          <button type="button" class="menu" aria-expanded={drawer === 'sessions'} aria-controls="sessions" onClick={() => toggle('sessions')}>Sessions</button>
          {selected && (
            <button type="button" class="menu" aria-expanded={drawer === 'documents'} aria-controls="documents" onClick={() => toggle('documents')}>Documents</button>
          )}
          <button type="button" class="link" onClick={onSignOut}>Sign out</button>
        </div>
      </header>
      <SessionList sessions={sessions} selectedId={selectedId} onCreate={create} onRename={rename} onChoose={() => setDrawer(undefined)}>
        <Search api={api} />
      </SessionList>
      <main class="session">
        {error && <p class="error" role="alert">{error}</p>}
        {selected ? (
          <SessionView key={selected.id} api={api} session={selected} onDelete={() => remove(selected.id)}
            onFirstUse={(name) => nameIfUntitled(selected.id, name)} />
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

function SessionView({ api, session, onDelete, onFirstUse }: { api: Api; session: Session; onDelete(): void; onFirstUse(name: string): void }) {
  const [confirming, setConfirming] = useState(false);
  const [documents, setDocuments] = useState<IngestJob[]>([]);
  const [opened, setOpened] = useState<CitedPage | undefined>();
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
      <div class={opened ? 'panes with-source' : 'panes'}>
        <Documents key={added} api={api} sessionId={session.id} onChange={setDocuments} onAdded={onFirstUse} />
        <Chat key={session.id} api={api} sessionId={session.id} title={session.label} documents={documents} onOpen={setOpened} onAsked={onFirstUse} />
        {/* A document without pages (its source names a unit, or its type has none) shows the unit as text. */}
        {opened && (opened.unit || hasNoPageImages(opened.filename)
          ? <UnitSourceDialog key={`${opened.ingestId}:${opened.page}`} api={api} cited={opened} onClose={() => setOpened(undefined)} />
          : <SourceDialog key={`${opened.ingestId}:${opened.page}`} api={api} cited={opened}
              pages={documents.find((doc) => doc.id === opened.ingestId)?.pages} onClose={() => setOpened(undefined)} />
        )}
      </div>
    </>
  );
}

const newestFirst = (list: Session[]) => [...list].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
