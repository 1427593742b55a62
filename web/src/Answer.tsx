import type { CitedPage, Source } from './types';

/**
 * An answer: its text, each "[n]" it cites a page by a button that opens that page, then its sources: the pages it
 * quotes, and, folded away, the other pages found for the question that it does not quote (further reading, not
 * evidence). Answers stored before sources said whether they were quoted count every source as quoted.
 */
export function Answer({ text, sources = [], open }: { text: string; sources?: Source[]; open(page: CitedPage): void }) {
  const quoted = citedPages(sources.filter((s) => s.cited !== false), true);
  const quotedKeys = new Set(quoted.map(pageKey));
  const others = citedPages(sources.filter((s) => s.cited === false), false).filter((p) => !quotedKeys.has(pageKey(p)));
  const list = (pages: CitedPage[], label: string) => (
    <ul class="sources" aria-label={label}>
      {pages.map((cited) => (
        <li key={pageKey(cited)}>
          <button type="button" class="source" onClick={() => open(cited)}>{cited.filename}, page {cited.page}</button>
        </li>
      ))}
    </ul>
  );
  return (
    <>
      <p class="content">{withMarkers(text, sources, quoted, open)}</p>
      {quoted.length > 0 && list(quoted, 'Sources')}
      {others.length > 0 && (
        <details class="also-found">
          <summary>Also found, not quoted: {others.length} {others.length === 1 ? 'page' : 'pages'}</summary>
          {list(others, 'Also found, not quoted')}
        </details>
      )}
    </>
  );
}

/**
 * The text with each "[n]" that a cited source is numbered by turned into a button opening that source's page. One
 * inside a quotation (“…”) is the document's own text (a receipt's "SUMME [3] EUR 152,00"), not a citation.
 */
function withMarkers(text: string, sources: Source[], quoted: CitedPage[], open: (page: CitedPage) => void) {
  const byMarker = new Map<number, CitedPage>();
  for (const s of sources) {
    const page = s.cited !== false && s.marker !== undefined && quoted.find((p) => pageKey(p) === pageKey(s));
    if (page && !byMarker.has(s.marker!)) byMarker.set(s.marker!, page);
  }
  if (byMarker.size === 0) return text;
  return text.split(/(“[^”]*”|\[\d+\])/).map((part, i) => {
    const page = /^\[\d+\]$/.test(part) ? byMarker.get(Number(part.slice(1, -1))) : undefined;
    if (!page) return part;
    return (
      <button key={i} type="button" class="link marker" aria-label={`Source ${part.slice(1, -1)}: ${page.filename}, page ${page.page}`} onClick={() => open(page)}>
        {part}
      </button>
    );
  });
}

const pageKey = (p: { ingestId: string; page: number }) => `${p.ingestId}:${p.page}`;

/** The sources by page, in the order the answer gives them: passages of one page are one page to open. */
function citedPages(sources: Source[], quoted: boolean): CitedPage[] {
  const pages = new Map<string, CitedPage>();
  for (const { filename, ingestId, page, excerpt, quote } of sources) {
    const passage = { excerpt, quote };
    const cited = pages.get(pageKey({ ingestId, page }));
    if (cited) cited.passages.push(passage);
    else pages.set(pageKey({ ingestId, page }), { filename, ingestId, page, passages: [passage], quoted });
  }
  return [...pages.values()];
}
