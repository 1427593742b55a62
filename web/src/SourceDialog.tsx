import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { SidePanel } from './SidePanel';
import { pageImageSize } from './page-image-size';
import { quotePieces } from './passage-marks';
import type { CitedPage, PageArea } from './types';

/**
 * How many times the dialog's width "Zoom" draws the page (styles.css: `.page-image.zoomed img`): a printed page's
 * small type becomes readable on a phone.
 */
const ZOOM = 2;

/**
 * The cited page as an image (fetched with the token, shown through a blob: URL) with the excerpts' lines marked on
 * it, and the excerpts themselves. The pages around it can be turned to (a table that goes on overleaf), up to `pages` when
 * the document's length is known. The image is asked for at the size the screen draws it, and "Zoom" draws it twice
 * as wide in a frame that scrolls.
 */
export function SourceDialog({ api, cited, pages, onClose }: { api: Api; cited: CitedPage; pages?: number; onClose(): void }) {
  const [page, setPage] = useState(cited.page);
  // The page shown stays until the next one has come: turning a page does not collapse the dialog meanwhile.
  const [shown, setShown] = useState<{ url: string; page: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [zoomed, setZoomed] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const [frameWidth, setFrameWidth] = useState<number | undefined>();
  // Observed, not read once: the dialog has no width until it opens, and a turned phone changes it.
  useEffect(() => {
    const observer = new ResizeObserver(([entry]) => entry && entry.contentRect.width > 0 && setFrameWidth(Math.round(entry.contentRect.width)));
    observer.observe(frame.current!);
    return () => observer.disconnect();
  }, []);
  // The tallest page shown so far (height / width): a page taller than A4 is asked for again, larger.
  const [tallest, setTallest] = useState(0);
  const size = frameWidth === undefined ? undefined : pageImageSize(frameWidth * (zoomed ? ZOOM : 1), window.devicePixelRatio || 1, tallest);
  useEffect(() => {
    if (size === undefined) return;
    let live = true;
    setError(undefined);
    api.pageImage(cited.ingestId, page, size).then(
      (url) => (live ? setShown({ url, page }) : URL.revokeObjectURL(url)),
      (e) => live && !(e instanceof Unauthorized) && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [cited.ingestId, page, size]);
  // Where the passages are on the cited page, each marked as it is found: the words the answer quotes when it says
  // which, else the excerpt. Marks only help: without them (not found, a failure) the page is shown as is.
  const [marks, setMarks] = useState<PageArea[][]>([]);
  const sought = cited.passages.map((p) => p.quote ?? p.excerpt);
  useEffect(() => {
    let live = true;
    sought.forEach((text, i) => {
      api.findOnPage(cited.ingestId, cited.page, text).then(
        (areas) => live && setMarks((found) => Object.assign([...found], { [i]: areas })),
        () => {},
      );
    });
    return () => {
      live = false;
    };
  }, [cited.ingestId, cited.page, sought.join('\u0000')]);
  const marked = shown?.page === cited.page ? marks.flatMap((areas) => areas ?? []) : [];
  // The first marked line is brought into view when the cited page is shown, and again when zoomed in or out.
  const firstMark = useRef<HTMLSpanElement>(null);
  const [loaded, setLoaded] = useState<string | undefined>();
  useEffect(() => {
    if (loaded === shown?.url) firstMark.current?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [loaded, marked.length, zoomed]);
  // Each image's URL is let go once another replaced it, or the dialog closed.
  useEffect(() => () => shown && URL.revokeObjectURL(shown.url), [shown]);
  const title = `${cited.filename}, page ${cited.page}`;
  // A page the answer quotes is "cited"; one only found for the question is "found".
  const role = cited.quoted ? 'cited' : 'found';
  const last = pages !== undefined && page >= pages;
  return (
    <SidePanel label={title} onClose={onClose} class="source-dialog">
      {/* The head stays in view while the page scrolls under it: where it is, how to turn, how to leave. */}
      <div class="source-head">
      <div class="dialog-head">
        <h2>{title}</h2>
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <div class="page-bar">
        <nav class="page-turn" aria-label="Pages of the document">
          {/* aria-disabled, not disabled: a button that turned to the first or last page keeps the keyboard focus. */}
          <button type="button" onClick={() => page > 1 && setPage(page - 1)} aria-disabled={page <= 1}>Previous page</button>
          <p aria-live="polite">Page {page}{pages !== undefined ? ` of ${pages}` : ''}{page === cited.page ? ` (${role})` : ''}</p>
          <button type="button" onClick={() => !last && setPage(page + 1)} aria-disabled={last}>Next page</button>
          {page !== cited.page && <button type="button" onClick={() => setPage(cited.page)}>{cited.quoted ? 'Back to the cited page' : 'Back to the page found'}</button>}
        </nav>
        <button type="button" aria-pressed={zoomed} onClick={() => setZoomed(!zoomed)}>Zoom</button>
      </div>
      </div>
      {/* It scrolls: reachable by keyboard (arrow keys scroll it), named for a screen reader. */}
      <div class="source-body" tabIndex={0} role="region" aria-label={`Passage and page ${page}`}>
      {cited.passages.map((passage, i) => <blockquote key={i} class="excerpt">{markedExcerpt(passage)}</blockquote>)}
      {/* Zoomed, the frame scrolls both ways; it takes the keyboard focus so that arrow keys scroll it too. */}
      <div ref={frame} class={zoomed ? 'page-image zoomed' : 'page-image'} {...(zoomed ? { tabIndex: 0, role: 'region', 'aria-label': `Page ${page}, zoomed` } : {})}>
        {error ? <p class="error">The page could not be shown: {error}</p> : shown?.page !== page && <p aria-busy="true">Loading page {page}…</p>}
        {shown && (
          <div class="sheet">
            <img
              src={shown.url}
              alt={`Page ${shown.page} of ${cited.filename}${marked.length > 0 ? `, the ${cited.quoted ? 'quoted' : 'found'} ${cited.passages.length > 1 ? 'passages' : 'passage'} marked` : ''}`}
              class={shown.page !== page ? 'stale' : undefined}
              onLoad={({ currentTarget: { naturalWidth, naturalHeight } }) => {
                if (naturalWidth > 0) setTallest((t) => Math.max(t, naturalHeight / naturalWidth));
                setLoaded(shown.url);
              }}
            />
            {marked.map((area, i) => (
              <span
                key={i}
                ref={i === 0 ? firstMark : undefined}
                class="mark"
                aria-hidden="true"
                style={{ left: `${area.x * 100}%`, top: `${area.y * 100}%`, width: `${area.width * 100}%`, height: `${area.height * 100}%` }}
              />
            ))}
          </div>
        )}
      </div>
      </div>
    </SidePanel>
  );
}

/**
 * The excerpt with what the answer quotes of it marked: each piece of the quote (between "…", and each of its
 * sentences: the quote joins the sentences it took of a passage, which the excerpt may hold apart or with a list's
 * bullet between them) where the excerpt holds it; pieces with only a space or a bullet between them are one mark.
 * The whole excerpt when the answerer does not say what it quotes (a model) or no piece is found.
 */
function markedExcerpt({ excerpt, quote }: { excerpt: string; quote?: string }) {
  // The pieces come in the excerpt's order: each is looked for after the one before ("Dr." is not marked elsewhere).
  let cursor = 0;
  const found = quotePieces(quote ?? '')
    .flatMap((piece) => {
      const after = excerpt.indexOf(piece, cursor);
      const at = after < 0 ? excerpt.indexOf(piece) : after;
      if (at < 0) return [];
      cursor = at + piece.length;
      return [[at, at + piece.length] as const];
    })
    .sort((a, b) => a[0] - b[0]);
  const spans: (readonly [number, number])[] = [];
  for (const [start, end] of found) {
    const last = spans.at(-1);
    if (last && /^\s*(?:[^\p{L}\p{N}\s]\s+|\p{Ll}\s+)?$/u.test(excerpt.slice(last[1], start))) spans[spans.length - 1] = [last[0], Math.max(last[1], end)];
    else spans.push([start, end]);
  }
  if (spans.length === 0) return <mark>{excerpt}</mark>;
  // Overlapping pieces were merged above: the spans are apart and in order.
  const parts = [];
  let from = 0;
  for (const [start, end] of spans) {
    parts.push(excerpt.slice(from, start), <mark key={start}>{excerpt.slice(start, end)}</mark>);
    from = end;
  }
  parts.push(excerpt.slice(from));
  return parts;
}
