import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Wide enough for the chat and a readable page side by side (styles.css: the same width). */
export const SIDE_BY_SIDE = '(min-width: 1000px)';

export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const change = () => setMatches(list.matches);
    list.addEventListener('change', change);
    return () => list.removeEventListener('change', change);
  }, [query]);
  return matches;
}

/**
 * A <dialog> beside the chat where the screen is wide (non-modal: the conversation stays readable and usable), over it
 * where it is narrow (modal: the browser traps the focus). Escape closes it either way; the focus goes back to what
 * opened it. Turning a phone switches between the two without losing what the panel shows.
 */
export function SidePanel({ label, onClose, children, class: className }: { label: string; onClose(): void; children: ComponentChildren; class?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const wide = useMedia(SIDE_BY_SIDE);
  const opener = useRef<Element | null>(null);
  useLayoutEffect(() => {
    opener.current = document.activeElement;
    return () => {
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus({ preventScroll: true });
    };
  }, []);
  useLayoutEffect(() => {
    const dialog = ref.current!;
    if (dialog.open) dialog.close();
    if (wide) dialog.show();
    else dialog.showModal();
    return () => dialog.open && dialog.close();
  }, [wide]);
  // Beside the chat, Escape closes it from within, from the button that opened it, or when the focus fell to the page
  // (a button that went away); not while the reader is elsewhere in the chat (Escape there may close a preview or mean
  // nothing). Listening from the moment it shows: an Escape pressed before the next paint was lost, and the panel
  // stayed open over the documents it hides.
  useLayoutEffect(() => {
    if (!wide) return;
    const onKey = (e: KeyboardEvent) => {
      const at = document.activeElement;
      if (e.key === 'Escape' && (ref.current?.contains(at) || at === opener.current || at === document.body || at === null)) {
        e.preventDefault();
        onClose();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [wide, onClose]);
  return (
    <dialog ref={ref} aria-label={label} class={`${className ?? ''} ${wide ? 'docked' : 'overlay'}`}
      onCancel={(e) => { e.preventDefault(); onClose(); }}>
      {children}
    </dialog>
  );
}
