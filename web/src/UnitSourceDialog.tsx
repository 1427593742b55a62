import { useEffect, useRef, useState } from 'preact/hooks';
import { Api, Unauthorized } from './api';
import { passageSpans } from './passage-marks';
import { SidePanel } from './SidePanel';
import type { CitedPage } from './types';

/**
 * A source in a document without pages (a Word section, a sheet, a slide): the whole unit as plain text, headed by
 * its label, with the cited passages marked. Text only: the unit's text is never read as markup (Preact escapes it).
 */
export function UnitSourceDialog({ api, cited, onClose }: { api: Api; cited: CitedPage; onClose(): void }) {
  const [unit, setUnit] = useState<{ label: string; text: string } | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    api.pageText(cited.ingestId, cited.page).then(
      (read) => live && setUnit(read),
      (e) => live && !(e instanceof Unauthorized) && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [cited.ingestId, cited.page]);
  const label = unit?.label || cited.unit || `Page ${cited.page}`;
  // The quoted words; where none is found (the text read differently this time), the excerpts.
  const quoted = unit ? passageSpans(unit.text, cited.passages.map((p) => p.quote ?? p.excerpt)) : [];
  const spans = unit && quoted.length === 0 ? passageSpans(unit.text, cited.passages.map((p) => p.excerpt)) : quoted;
  // The first marked passage is brought into view once the text is there: a long section would hide it.
  const firstMark = useRef<HTMLElement>(null);
  useEffect(() => firstMark.current?.scrollIntoView({ block: 'center', inline: 'nearest' }), [unit]);
  return (
    <SidePanel label={`${cited.filename}, ${label}`} onClose={onClose} class="source-dialog">
      <div class="source-head">
        <div class="dialog-head">
          <h2>{label}</h2>
          <button type="button" onClick={onClose}>Close</button>
        </div>
        <p class="unit-of">{cited.filename} · {cited.quoted ? 'cited' : 'found for the question'}</p>
      </div>
      <div class="source-body" tabIndex={0} role="region" aria-label={`Text of ${label}`}>
        {error ? <p class="error">The passage could not be shown: {error}</p>
          : !unit ? <p aria-busy="true">Loading {label}…</p>
          : (
            <>
              {/* Neither found: the excerpts stand in for the marks. */}
              {spans.length === 0 && cited.passages.map((p, i) => <blockquote key={i} class="excerpt"><mark>{p.excerpt}</mark></blockquote>)}
              <div class="unit-text">{markedText(unit.text, spans, firstMark)}</div>
            </>
          )}
      </div>
    </SidePanel>
  );
}

function markedText(text: string, spans: [number, number][], firstMark: preact.RefObject<HTMLElement>) {
  const parts = [];
  let from = 0;
  for (const [i, [start, end]] of spans.entries()) {
    parts.push(text.slice(from, start), <mark key={start} ref={i === 0 ? firstMark : undefined}>{text.slice(start, end)}</mark>);
    from = end;
  }
  parts.push(text.slice(from));
  return parts;
}
