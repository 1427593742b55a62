import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { placeOf } from './place';
import type { CitedPage } from './types';

let markerIds = 0;

/**
 * A "[n]" in an answer: a button that opens its page, and while hovered or focused a tooltip with the passage it
 * quotes (what the answer quotes of it, else its excerpt), so a reader checks a claim without leaving the answer.
 * Escape hides the tooltip (WCAG 1.4.13); the pointer may move onto it without it closing.
 */
export function Marker({ n, page, open }: { n: number; page: CitedPage; open(page: CitedPage): void }) {
  const [id] = useState(() => `marker-tip-${++markerIds}`);
  const [shown, setShown] = useState(false);
  const wrap = useRef<HTMLSpanElement>(null);
  // Attached before the tooltip is painted: an Escape pressed as soon as it shows must find the listener there.
  useLayoutEffect(() => {
    if (!shown) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setShown(false);
    // A pointer that left without a mouseleave (the answer re-rendered under it) still hides it, unless the mark has focus.
    const onMove = (e: PointerEvent) => {
      const el = wrap.current;
      if (el && !el.contains(e.target as Node) && !el.contains(document.activeElement)) setShown(false);
    };
    addEventListener('keydown', onKey);
    addEventListener('pointermove', onMove);
    return () => {
      removeEventListener('keydown', onKey);
      removeEventListener('pointermove', onMove);
    };
  }, [shown]);
  // Kept inside the conversation's box: a mark near its right edge (a phone) shifts its preview leftwards.
  const tip = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = tip.current;
    if (!shown || !el) return;
    const box = (el.closest('.log') ?? document.documentElement).getBoundingClientRect();
    const own = el.getBoundingClientRect();
    const margin = 8;
    const shift = Math.min(0, box.right - margin - own.right);
    el.style.left = `${Math.max(shift, box.left + margin - (own.left - el.offsetLeft))}px`;
  }, [shown]);
  const passage = page.passages.map((p) => p.quote ?? p.excerpt).join(' … ');
  return (
    <span class="marker-wrap" ref={wrap} onMouseEnter={() => setShown(true)} onMouseLeave={() => setShown(false)}>
      <button type="button" class="link marker" aria-label={`Source ${n}: ${placeOf(page)}`}
        aria-describedby={shown ? id : undefined}
        onFocus={() => setShown(true)} onBlur={() => setShown(false)} onClick={() => open(page)}>
        [{n}]
      </button>
      {shown && (
        <span role="tooltip" id={id} class="tooltip" ref={tip}>
          <span class="tooltip-source">{placeOf(page)}</span>
          {passage}
        </span>
      )}
    </span>
  );
}
