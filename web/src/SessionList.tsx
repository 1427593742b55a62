import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { navigate } from './route';
import type { Session } from './types';

export function SessionList({ sessions, selectedId, onCreate, onRename, onChoose, children }: {
  sessions?: Session[];
  selectedId?: string;
  onCreate(): void;
  onRename(id: string, label: string): Promise<void>;
  /** A session's link was followed (the phone's menu closes, even on the session already shown). */
  onChoose?(): void;
  /** Shown under the New session button (the search over past chats), inside the phone's Sessions menu too. */
  children?: ComponentChildren;
}) {
  return (
    <nav class="sessions" id="sessions" aria-label="Sessions" onClick={(e) => (e.target as Element).closest('a') && onChoose?.()}>
      <h2>Sessions</h2>
      <button type="button" class="primary" onClick={onCreate}>New session</button>
      {children}
      <ul>
        {sessions?.map((session) => (
          <SessionItem key={session.id} session={session} current={session.id === selectedId} onRename={onRename} />
        ))}
      </ul>
    </nav>
  );
}

function SessionItem({ session, current, onRename }: { session: Session; current: boolean; onRename(id: string, label: string): Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState(session.label);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing) {
      input.current?.focus();
      input.current?.select();
    }
  }, [editing]);

  const finish = async (save: boolean) => {
    if (save && label.trim() && label.trim() !== session.label) await onRename(session.id, label.trim());
    setEditing(false);
    setLabel(session.label);
    requestAnimationFrame(() => renameButton.current?.focus());
  };

  if (editing) {
    return (
      <li>
        <form class="rename" onSubmit={(e) => { e.preventDefault(); void finish(true); }}>
          <label for={`rename-${session.id}`} class="visually-hidden">Session name</label>
          <input
            id={`rename-${session.id}`}
            ref={input}
            value={label}
            maxLength={200}
            onInput={(e) => setLabel(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && void finish(false)}
          />
          <button type="submit">Save</button>
        </form>
      </li>
    );
  }
  return (
    <li class={current ? 'current' : undefined}>
      <a
        href={`/sessions/${encodeURIComponent(session.id)}`}
        aria-current={current ? 'page' : undefined}
        onClick={(e) => { e.preventDefault(); navigate(session.id); }}
      >
        {session.label}
      </a>
      <button type="button" class="icon" ref={renameButton} aria-label={`Rename ${session.label}`} onClick={() => setEditing(true)}>
        Rename
      </button>
    </li>
  );
}
