import { useEffect, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { Modal } from './ConfirmDialog';
import type { LibraryDocument } from './types';

/**
 * The user's documents across sessions, each with the sessions holding it, and `Add to this session` for those this
 * session lacks: the server copies the document's chunks, nothing is uploaded or read again.
 */
export function Library({ api, sessionId, onAdded, onClose }: { api: Api; sessionId: string; onAdded(): void; onClose(): void }) {
  const [library, setLibrary] = useState<{ data: LibraryDocument[]; truncated: boolean } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [adding, setAdding] = useState<string | undefined>();

  const report = (e: unknown, what: string) => {
    if (!(e instanceof Unauthorized)) setProblem(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  };
  const load = () => api.library().then(setLibrary, (e) => report(e, 'The library could not be listed'));
  useEffect(() => void load(), [sessionId]);

  const add = async (document: LibraryDocument) => {
    setAdding(document.id);
    setProblem(undefined);
    try {
      await api.addLibraryDocument(sessionId, document.id);
      setStatus(`${document.filename} was added to this session.`);
      onAdded();
      await load();
    } catch (e) {
      report(e, `${document.filename} could not be added`);
    } finally {
      setAdding(undefined);
    }
  };

  return (
    <Modal label="Library" onClose={onClose} class="library">
      <div class="dialog-head">
        <h2>Library</h2>
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <p class="hint">Your documents in every session. Adding one to this session reuses it: nothing is uploaded again.</p>
      <p role="status" class="hint">{status}</p>
      {problem && <p class="error" role="alert">{problem}</p>}
      {!library ? (
        <p aria-busy="true">Loading the library…</p>
      ) : library.data.length === 0 ? (
        <p>No documents yet: upload one to a session and it appears here.</p>
      ) : (
        <ul aria-label="Library documents" class="library-list">
          {library.data.map((document) => {
            const here = document.sessions.some((h) => h.sessionId === sessionId);
            return (
              <li key={document.id}>
                <span class="name">{document.filename}</span>
                {document.pages !== undefined && <span class="hint"> · {document.pages} {document.pages === 1 ? 'page' : 'pages'}</span>}
                <span class="hint holders">In: {document.sessions.map((h) => h.label).join(', ')}</span>
                {here ? (
                  <span class="hint">In this session</span>
                ) : (
                  <button type="button" disabled={adding !== undefined} onClick={() => add(document)}>
                    {adding === document.id ? 'Adding…' : 'Add to this session'}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {library?.truncated && <p class="hint">Only your 2000 most recent documents are listed.</p>}
    </Modal>
  );
}
