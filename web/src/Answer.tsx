import { useState } from 'preact/hooks';
import { answerBlocks, markerOrder, type Block } from './answer-text';
import { Marker } from './Marker';
import { placeOf } from './place';
import { answerForCopy } from './transcript';
import type { CitedPage, Source } from './types';

/**
 * An answer: the direct line first, the quote that supports it, other passages folded ("Also found", "Closest found"),
 * each "[n]" a button that previews its passage and opens its page; then each page it cites once, in the order the
 * marks first appear, numbered as they are; then, folded, the pages found that it does not quote (further reading, not
 * evidence). Answers stored before sources said whether they were quoted count every source as quoted.
 */
export function Answer({ text, sources = [], open, streaming }: { text: string; sources?: Source[]; open(page: CitedPage): void; streaming?: boolean }) {
  const { byMarker, numbered, unnumbered } = citedInOrder(text, sources);
  const quotedKeys = new Set([...numbered.map(([, p]) => p), ...unnumbered].map(pageKey));
  const others = citedPages(sources.filter((s) => s.cited === false), false).filter((p) => !quotedKeys.has(pageKey(p)));
  const source = (cited: CitedPage, n?: number) => (
    <li key={pageKey(cited)}>
      {n !== undefined && <span class="number" aria-hidden="true">[{n}]</span>}
      <button type="button" class="source" onClick={() => open(cited)}>{placeOf(cited)}</button>
    </li>
  );
  const render = (blocks: Block[]) => blocks.map((block, i) => <BlockView key={i} block={block} byMarker={byMarker} open={open} />);
  return (
    <>
      <div class="content">{render(answerBlocks(text))}</div>
      {numbered.length + unnumbered.length > 0 && (
        <ol class="sources" aria-label="Sources">
          {numbered.map(([n, page]) => source(page, n))}
          {unnumbered.map((page) => source(page))}
        </ol>
      )}
      {others.length > 0 && (
        <details class="also-found">
          <summary>Pages found, not quoted: {others.length}</summary>
          <ul class="sources" aria-label="Pages found, not quoted">{others.map((page) => source(page))}</ul>
        </details>
      )}
      {!streaming && text && <CopyButton text={answerForCopy(text, sources)} />}
    </>
  );
}

function BlockView({ block, byMarker, open }: { block: Block; byMarker: Map<number, CitedPage>; open(page: CitedPage): void }) {
  const marked = (text: string) => withMarkers(text, byMarker, open);
  switch (block.kind) {
    case 'lead':
      return <p class="lead">{marked(block.text)}</p>;
    case 'not-found':
      return <p class="not-found">{marked(block.text)}</p>;
    case 'text':
      return <p>{marked(block.text)}</p>;
    case 'table': {
      const [head, ...body] = block.header ? block.rows : [undefined, ...block.rows];
      return (
        <div class="table-frame">
          <table>
            {head && <thead><tr>{head.map((cell, i) => <th key={i} scope="col">{marked(cell)}</th>)}</tr></thead>}
            <tbody>{body.map((row, r) => <tr key={r}>{row!.map((cell, i) => <td key={i}>{marked(cell)}</td>)}</tr>)}</tbody>
          </table>
        </div>
      );
    }
    case 'folded':
      return (
        <details class="folded">
          <summary>{block.label === 'Also found' ? `Also found (${block.count})` : 'Closest found'}</summary>
          {block.blocks.map((inner, i) => <BlockView key={i} block={inner} byMarker={byMarker} open={open} />)}
        </details>
      );
  }
}

/** Copies the answer with its sources; says so where the click was (a status), or why it could not. */
function CopyButton({ text }: { text: string }) {
  const [said, setSaid] = useState<string | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Could not copy: the browser did not allow it');
    }
    setTimeout(() => setSaid(undefined), 2500);
  };
  return (
    <div class="answer-actions">
      <button type="button" class="icon" onClick={() => void copy()}>Copy</button>
      <span role="status" class="hint">{said}</span>
    </div>
  );
}

/**
 * The text with each "[n]" that a cited source is numbered by turned into a button opening that source's page. One
 * inside a quotation (“…”) is the document's own text (a receipt's "SUMME [3] EUR 152,00"), not a citation.
 */
function withMarkers(text: string, byMarker: Map<number, CitedPage>, open: (page: CitedPage) => void) {
  if (byMarker.size === 0) return text;
  return text.split(/(“[^”]*”|\[\d+\])/).map((part, i) => {
    const n = /^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : undefined;
    const page = n === undefined ? undefined : byMarker.get(n);
    if (!page) return part;
    return <Marker key={i} n={n!} page={page} open={open} />;
  });
}

const pageKey = (p: { ingestId: string; page: number }) => `${p.ingestId}:${p.page}`;

/**
 * The quoted pages, each once: those the text numbers, in the order their marks first appear (then any number the
 * text does not show), and those a model cited without a number. Passages of one page are one page to open.
 */
function citedInOrder(text: string, sources: Source[]) {
  const quoted = citedPages(sources.filter((s) => s.cited !== false), true);
  const byKey = new Map(quoted.map((p) => [pageKey(p), p]));
  const byMarker = new Map<number, CitedPage>();
  for (const s of sources) {
    if (s.cited === false || s.marker === undefined || byMarker.has(s.marker)) continue;
    byMarker.set(s.marker, byKey.get(pageKey(s))!);
  }
  const inText = markerOrder(text).filter((n) => byMarker.has(n));
  const order = [...inText, ...[...byMarker.keys()].filter((n) => !inText.includes(n)).sort((a, b) => a - b)];
  const listed = new Set<string>();
  const numbered: [number, CitedPage][] = [];
  for (const n of order) {
    const page = byMarker.get(n)!;
    if (listed.has(pageKey(page))) continue;
    listed.add(pageKey(page));
    numbered.push([n, page]);
  }
  const unnumbered = quoted.filter((p) => !listed.has(pageKey(p)));
  return { byMarker, numbered, unnumbered };
}

/** The sources by page, in the order the answer gives them: passages of one page are one page to open. */
function citedPages(sources: Source[], quoted: boolean): CitedPage[] {
  const pages = new Map<string, CitedPage>();
  for (const { filename, ingestId, page, excerpt, quote, unit } of sources) {
    const passage = { excerpt, quote };
    const cited = pages.get(pageKey({ ingestId, page }));
    if (cited) cited.passages.push(passage);
    else pages.set(pageKey({ ingestId, page }), { filename, ingestId, page, ...(unit && { unit }), passages: [passage], quoted });
  }
  return [...pages.values()];
}
