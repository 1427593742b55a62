import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';

/**
 * Reads "PDF" text (one page per form feed) the way the child-process reader treats a long document: it takes the
 * bytes at once (there: into a temporary file) and keeps only a weak reference to them, hands every page over with
 * onPages, then waits until the test lets it answer. Tests look at `bytes` meanwhile: whatever still reaches them
 * is holding a document in memory for the whole of its extraction.
 */
export class HandOverReader implements DocumentReader {
  bytes?: WeakRef<Uint8Array>;
  /** Resolves once every page is handed over and the reader waits. */
  readonly waiting: Promise<void>;
  private nowWaiting!: () => void;
  private release!: () => void;

  constructor() {
    this.waiting = new Promise((resolve) => (this.nowWaiting = resolve));
  }

  // Not async: this frame, and with it the request, is gone once the promise is returned.
  read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    this.bytes = new WeakRef(request.bytes);
    const text = Buffer.from(request.bytes).toString('utf8');
    return this.answer(text, request.onPages);
  }

  /** Lets the waiting read answer. */
  finish(): void {
    this.release();
  }

  private async answer(text: string, onPages: ReadDocumentRequest['onPages']): Promise<ExtractedPage[]> {
    const pages = text.split('\f').map((page, i): ExtractedPage => ({ page: i + 1, text: page, method: 'text' }));
    onPages?.(pages);
    await new Promise<void>((resolve) => {
      this.release = resolve;
      this.nowWaiting();
    });
    return onPages ? pages.map((page) => ({ ...page, text: '' })) : pages; // handed over: the contract lets a reader leave them out
  }
}
