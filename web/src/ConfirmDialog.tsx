import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A modal <dialog>: the browser traps focus and closes it on Escape. */
export function Modal({ label, onClose, children, class: className }: { label: string; onClose(): void; children: ComponentChildren; class?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    return () => dialog.open && dialog.close();
  }, []);
  return (
    <dialog ref={ref} aria-label={label} class={className} onClose={onClose} onCancel={(e) => { e.preventDefault(); onClose(); }}>
      {children}
    </dialog>
  );
}

export function ConfirmDialog({ title, text, confirm, onConfirm, onCancel }: { title: string; text: string; confirm: string; onConfirm(): void; onCancel(): void }) {
  return (
    <Modal label={title} onClose={onCancel}>
      <h2>{title}</h2>
      <p>{text}</p>
      <div class="actions">
        <button type="button" onClick={onCancel}>Cancel</button>
        <button type="button" class="danger" onClick={onConfirm}>{confirm}</button>
      </div>
    </Modal>
  );
}
