import { useEffect, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { Modal } from './ConfirmDialog';
import type { Source } from './types';

/** The cited page as an image (fetched with the token, shown through a blob: URL) and the excerpt, marked. */
export function SourceDialog({ api, source, onClose }: { api: Api; source: Source; onClose(): void }) {
  const [image, setImage] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    api.pageImage(source.ingestId, source.page).then(
      (blobUrl) => (live ? setImage((url = blobUrl)) : URL.revokeObjectURL(blobUrl)),
      (e) => live && !(e instanceof Unauthorized) && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [source.ingestId, source.page]);
  const title = `${source.filename}, page ${source.page}`;
  return (
    <Modal label={title} onClose={onClose} class="source-dialog">
      <div class="dialog-head">
        <h2>{title}</h2>
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <blockquote class="excerpt"><mark>{source.excerpt}</mark></blockquote>
      <div class="page-image">
        {image ? <img src={image} alt={`Page ${source.page} of ${source.filename}`} /> : error ? <p class="error">The page could not be shown: {error}</p> : <p aria-busy="true">Loading the page…</p>}
      </div>
    </Modal>
  );
}
