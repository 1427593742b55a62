import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, ApiError, putWithProgress, Unauthorized } from './api';
import { broadcast, useBroadcast } from './broadcast';
import { ConfirmDialog } from './ConfirmDialog';
import { DocumentItem } from './DocumentItem';
import type { IngestJob } from './types';
import { acceptAttribute, checkFile, CONTRACT_UPLOAD_TYPES, forPeople, parseTags, uploadHint, type UploadTypes } from './upload-rules';

interface Upload {
  id: number;
  filename: string;
  /** Sent so far; undefined while it waits its turn. */
  fraction?: number;
}

/** A file chosen for upload, with the tags given when it was chosen. */
interface Queued {
  file: File;
  contentType: string;
  tags: Record<string, string>;
  item: Upload;
}

const POLL_MS = 600;
const PROGRESS_UNREAD = 'Progress could not be read';
/**
 * Files sent at once, in the order chosen: the server refuses a user's 21st upload not yet ingested (MAX_PENDING_UPLOADS),
 * so a folder of 30 receipts sent all at once lost 10 of them; and the browser opens 6 connections to a server anyway.
 */
const PARALLEL_UPLOADS = 3;
let uploadIds = 0;

/**
 * The session's documents, uploads with their progress, and drag-and-drop anywhere on the page. `onAdded` hears each
 * file name sent (an untitled session takes its name from the first); other tabs hear of documents added or removed.
 */
export function Documents({ api, sessionId, onChange, onAdded }: {
  api: Api; sessionId: string; onChange(documents: IngestJob[]): void; onAdded(filename: string): void;
}) {
  const [documents, setDocuments] = useState<IngestJob[]>([]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [institution, setInstitution] = useState('');
  const [otherTags, setOtherTags] = useState('');
  const [removing, setRemoving] = useState<IngestJob | undefined>();
  const [dragging, setDragging] = useState(false);
  // What this server takes (ACCEPTED_TYPES); the contract's three until it says, or if it cannot be asked.
  const [types, setTypes] = useState<UploadTypes>(CONTRACT_UPLOAD_TYPES);
  const alive = useRef(true);
  /** Files chosen and not yet sent, of every choice so far (one queue: two quick choices do not double what is sent). */
  const queue = useRef<Queued[]>([]);
  const senders = useRef(0);
  /** The files this tab sent, by job: a failed one can be sent again without choosing it anew. */
  const sent = useRef(new Map<string, { file: File; tags: Record<string, string> }>());

  const report = (e: unknown, what: string) => {
    if (!(e instanceof Unauthorized)) setProblems((p) => [...p, `${what}: ${e instanceof Error ? e.message : String(e)}`]);
  };
  const refresh = () =>
    api.listDocuments(sessionId).then((list) => alive.current && setDocuments(list), (e) => report(e, 'Documents could not be listed'));

  useEffect(() => {
    alive.current = true;
    void refresh();
    return () => void (alive.current = false);
  }, [sessionId]);
  useEffect(() => onChange(documents), [documents]);
  useBroadcast((message) => message.kind === 'documents' && message.sessionId === sessionId && void refresh());
  /** What the server told, asked once: a file chosen before the answer came waits for it, not refused by the three. */
  const typesTold = useRef<Promise<UploadTypes>>();
  useEffect(() => {
    typesTold.current = api.uploadTypes().then((told) => {
      if (alive.current) setTypes(told);
      return told;
    }, () => CONTRACT_UPLOAD_TYPES);
  }, []);

  // Jobs still running are followed through GET /ingest/:id (stage and progress) until they end.
  const running = documents.filter((d) => d.status === 'queued' || d.status === 'processing').map((d) => d.id).join(',');
  useEffect(() => {
    if (!running) return;
    // A read that fails (a dropped connection, a server restarting) is said once and the next ones keep trying: giving
    // up left a finished job shown as running until the page was reloaded.
    let failing = false;
    const timer = setInterval(async () => {
      try {
        const jobs = await Promise.all(running.split(',').map((id) => api.ingestJob(id)));
        if (!alive.current) return;
        setDocuments((list) => list.map((d) => jobs.find((j) => j.id === d.id) ?? d));
        if (failing) setProblems((p) => p.filter((problem) => !problem.startsWith(PROGRESS_UNREAD)));
        failing = false;
      } catch (e) {
        if (e instanceof Unauthorized) return clearInterval(timer);
        // A job gone (its document removed elsewhere): the list says what is left, and what to follow.
        if (e instanceof ApiError && e.status === 404) {
          clearInterval(timer);
          return void refresh();
        }
        if (!failing) report(e, PROGRESS_UNREAD);
        failing = true;
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  const upload = async (files: File[], given?: Record<string, string>) => {
    setProblems([]);
    const tags = given ?? parseTags(institution, otherTags);
    if ('error' in tags) return setProblems([tags.error as string]);
    const known = (await typesTold.current) ?? types;
    const chosen: Queued[] = [];
    for (const file of files) {
      const checked = checkFile(file, known);
      if ('error' in checked) setProblems((p) => [...p, `${file.name}: ${checked.error}`]);
      else chosen.push({ file, contentType: checked.contentType, tags, item: { id: ++uploadIds, filename: file.name } });
    }
    setUploads((list) => [...list, ...chosen.map(({ item }) => item)]);
    queue.current.push(...chosen);
    const send = async ({ file, contentType, tags, item }: Queued) => {
      const update = (fraction: number) => setUploads((list) => list.map((u) => (u.id === item.id ? { ...u, fraction } : u)));
      try {
        update(0);
        const { signedUrl, key } = await api.uploadUrl({ filename: file.name, contentType, contentSize: file.size });
        await putWithProgress(signedUrl, file, contentType, update);
        const jobId = await api.ingest({ key, filename: file.name, session_id: sessionId, tags });
        sent.current.set(jobId, { file, tags });
        onAdded(file.name);
        broadcast({ kind: 'documents', sessionId });
        await refresh();
      } catch (e) {
        report(e instanceof Error && !(e instanceof Unauthorized) ? new Error(forPeople(e.message, file, known)) : e, file.name);
      } finally {
        setUploads((list) => list.filter((u) => u.id !== item.id));
      }
    };
    const starting = Math.min(PARALLEL_UPLOADS - senders.current, queue.current.length);
    senders.current += starting;
    await Promise.all(Array.from({ length: starting }, async () => {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) await send(next);
      senders.current--;
    }));
  };

  // Drop files anywhere on the page.
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => e.relatedTarget === null && setDragging(false);
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer?.files.length) return;
      e.preventDefault();
      setDragging(false);
      void upload([...e.dataTransfer.files]);
    };
    addEventListener('dragover', over);
    addEventListener('dragleave', leave);
    addEventListener('drop', drop);
    return () => {
      removeEventListener('dragover', over);
      removeEventListener('dragleave', leave);
      removeEventListener('drop', drop);
    };
  });

  const remove = async (doc: IngestJob) => {
    setRemoving(undefined);
    try {
      await api.deleteDocument(sessionId, doc.id);
      setDocuments((list) => list.filter((d) => d.id !== doc.id));
      broadcast({ kind: 'documents', sessionId });
    } catch (e) {
      report(e, `${doc.filename} could not be removed`);
    }
  };

  // A failed job is removed and its file sent again with its tags: a new job, as a new upload would make.
  const retry = async (doc: IngestJob) => {
    const again = sent.current.get(doc.id);
    if (!again) return;
    await remove(doc);
    sent.current.delete(doc.id);
    await upload([again.file], again.tags);
  };

  return (
    <section id="documents" class={dragging ? 'documents dragging' : 'documents'} aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      <div class="upload">
        <label for="upload-input" class="button primary">Upload documents</label>
        <input id="upload-input" class="file-input" type="file" multiple accept={acceptAttribute(types)}
          onChange={(e) => { const files = [...(e.currentTarget.files ?? [])]; e.currentTarget.value = ''; void upload(files); }} />
        <p class="hint" id="upload-hint">{uploadHint(types)}</p>
        <details>
          <summary>Tags for the next upload</summary>
          <label for="tag-institution">Institution</label>
          <input id="tag-institution" value={institution} onInput={(e) => setInstitution(e.currentTarget.value)} />
          <label for="tag-others">Other tags</label>
          <input id="tag-others" aria-describedby="tag-others-hint" value={otherTags} onInput={(e) => setOtherTags(e.currentTarget.value)} />
          <p class="hint" id="tag-others-hint">name=value pairs separated by commas, e.g. year=2024, client=acme</p>
        </details>
      </div>
      {problems.length > 0 && (
        <ul class="problems" role="alert">
          {problems.map((p, i) => <li key={i}>{p}</li>)}
        </ul>
      )}
      <ul class="document-list" aria-label="Documents">
        {uploads.map((u) => (
          <li key={`u${u.id}`} class="document">
            <span class="filename">{u.filename}</span>
            <span class="status">{u.fraction === undefined ? 'waiting to upload' : 'uploading'}</span>
            {u.fraction !== undefined && <progress aria-label={`Uploading ${u.filename}`} max={1} value={u.fraction} />}
          </li>
        ))}
        {documents.map((doc) => (
          <DocumentItem key={doc.id} doc={doc} onRemove={() => setRemoving(doc)}
            onRetry={doc.status === 'failed' && sent.current.has(doc.id) ? () => void retry(doc) : undefined} />
        ))}
        {documents.length === 0 && uploads.length === 0 && <li class="none">No documents yet.</li>}
      </ul>
      {removing && (
        <ConfirmDialog
          title="Remove this document?"
          text={`“${removing.filename}” is removed from this session and no longer cited.`}
          confirm="Remove"
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(undefined)}
        />
      )}
    </section>
  );
}
