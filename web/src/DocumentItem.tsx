import { progressText } from './progress-text';
import type { IngestJob } from './types';

/**
 * A document of the session: its name, tags, pages, and where its ingestion is, in words on screen (not only in the
 * progress bar's aria-valuetext); a failed one says why, and offers Retry while this tab still holds the file.
 */
export function DocumentItem({ doc, onRemove, onRetry }: { doc: IngestJob; onRemove(): void; onRetry?: () => void }) {
  const tags = Object.entries(doc.tags ?? {});
  const running = doc.status === 'queued' || doc.status === 'processing';
  const status = doc.status === 'failed' ? `failed: ${doc.error ?? 'unknown reason'}` : running ? progressText(doc) : doc.status;
  return (
    <li class="document">
      <span class="filename">{doc.filename}</span>
      {doc.kind && doc.kind !== 'other' && <span class="pages kind">{doc.kind.replace('-', ' ')}</span>}
      {tags.length > 0 && (
        <span class="tags">{tags.map(([k, v]) => <span class="tag" key={k}>{k}: {v}</span>)}</span>
      )}
      {doc.pages !== undefined && !running && <span class="pages">{doc.pages === 1 ? '1 page' : `${doc.pages} pages`}</span>}
      <span class={`status ${doc.status}`}>{status}</span>
      {running && (
        <progress aria-label={`Ingesting ${doc.filename}`} aria-valuetext={status} max={1} value={doc.progress ?? 0} />
      )}
      {doc.status === 'failed' && onRetry && (
        <button type="button" class="icon" aria-label={`Retry ${doc.filename}`} onClick={onRetry}>Retry</button>
      )}
      <button type="button" class="icon" aria-label={`Remove ${doc.filename}`} onClick={onRemove}>Remove</button>
    </li>
  );
}
