import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, putWithProgress, Unauthorized } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import type { IngestJob } from './types';
import { acceptAttribute, checkFile, CONTRACT_UPLOAD_TYPES, parseTags, uploadHint, type UploadTypes } from './upload-rules';

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
/**
 * Files sent at once, in the order chosen: the server refuses a user's 21st upload not yet ingested (MAX_PENDING_UPLOADS),
 * so a folder of 30 receipts sent all at once lost 10 of them; and the browser opens 6 connections to a server anyway.
 */
const PARALLEL_UPLOADS = 3;
let uploadIds = 0;

/** The session's documents, uploads with their progress, and drag-and-drop anywhere on the page. */
export function Documents({ api, sessionId, onChange }: { api: Api; sessionId: string; onChange(documents: IngestJob[]): void }) {
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
  useEffect(() => {
    api.uploadTypes().then((told) => alive.current && setTypes(told), () => {});
  }, []);

  // Jobs still running are followed through GET /ingest/:id (stage and progress) until they end.
  const running = documents.filter((d) => d.status === 'queued' || d.status === 'processing').map((d) => d.id).join(',');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      try {
        const jobs = await Promise.all(running.split(',').map((id) => api.ingestJob(id)));
        if (alive.current) setDocuments((list) => list.map((d) => jobs.find((j) => j.id === d.id) ?? d));
      } catch (e) {
        clearInterval(timer);
        report(e, 'Progress could not be read');
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  const upload = async (files: File[]) => {
    setProblems([]);
    const tags = parseTags(institution, otherTags);
    if ('error' in tags) return setProblems([tags.error as string]);
    const chosen: Queued[] = [];
    for (const file of files) {
      const checked = checkFile(file, types);
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
        await api.ingest({ key, filename: file.name, session_id: sessionId, tags });
        await refresh();
      } catch (e) {
        report(e, file.name);
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
    } catch (e) {
      report(e, `${doc.filename} could not be removed`);
    }
  };

  return (
    <section class={dragging ? 'documents dragging' : 'documents'} aria-labelledby="documents-title">
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
          <DocumentItem key={doc.id} doc={doc} onRemove={() => setRemoving(doc)} />
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

function DocumentItem({ doc, onRemove }: { doc: IngestJob; onRemove(): void }) {
  const status = doc.status === 'failed' ? `failed: ${doc.error ?? 'unknown reason'}` : doc.status;
  const tags = Object.entries(doc.tags ?? {});
  const running = doc.status === 'queued' || doc.status === 'processing';
  return (
    <li class="document">
      <span class="filename">{doc.filename}</span>
      {tags.length > 0 && (
        <span class="tags">{tags.map(([k, v]) => <span class="tag" key={k}>{k}: {v}</span>)}</span>
      )}
      {doc.pages !== undefined && <span class="pages">{doc.pages === 1 ? '1 page' : `${doc.pages} pages`}</span>}
      <span class={`status ${doc.status}`}>{status}</span>
      {running && (
        <progress aria-label={`Ingesting ${doc.filename}`} aria-valuetext={doc.stage ? `${doc.stage}, ${Math.round((doc.progress ?? 0) * 100)}%` : doc.status}
          max={1} value={doc.progress ?? 0} />
      )}
      <button type="button" class="icon" aria-label={`Remove ${doc.filename}`} onClick={onRemove}>Remove</button>
    </li>
  );
}
