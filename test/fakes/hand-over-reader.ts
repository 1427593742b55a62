import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest, StoredDocument } from '../../core/ports/document-reader.js';

/**
 * Reads "PDF" text (one page per form feed) the way the child-process reader treats a long document: it reads the
 * document at once (there: into a temporary file) keeping only weak references to what it was given, hands every page
 * over with onPages, then waits until the test lets it answer. Tests look at `pieces` meanwhile: whatever still reaches
 * them is holding a document in memory for the whole of its extraction.
 */
export class HandOverReader implements DocumentReader {
  /** What the document came as: bytes, or pieces of a stream (each weakly held). */
  pieces: WeakRef<Uint8Array>[] = [];
  /** Whether the document came as a function that streams it (as a stored one should) rather than as bytes. */
  streamed = false;
  /** Resolves once every page is handed over and the reader waits. */
  readonly waiting: Promise<void>;
  private nowWaiting!: () => void;
  private release!: () => void;

  constructor() {
    this.waiting = new Promise((resolve) => (this.nowWaiting = resolve));
  }

  // Not async: this frame, and with it the request, is gone once the promise is returned.
  read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    this.streamed = typeof request.document === 'function';
    return this.answer(this.readText(request.document), request.onPages, request.firstPage ?? 1);
  }

  /** Lets the waiting read answer. */
  finish(): void {
    this.release();
  }

  /** The document's text; once it resolves, nothing here holds the document (this frame is gone). */
  private async readText(document: StoredDocument): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    for await (const piece of typeof document === 'function' ? document() : [document]) {
      this.pieces.push(new WeakRef(piece));
      text += decoder.decode(piece, { stream: true });
    }
    return text + decoder.decode();
  }

  private async answer(reading: Promise<string>, onPages: ReadDocumentRequest['onPages'], firstPage: number): Promise<ExtractedPage[]> {
    const text = await reading;
    const pages = text.split('\f').map((page, i): ExtractedPage => ({ page: i + 1, text: page, method: 'text' })).filter((page) => page.page >= firstPage);
    onPages?.(pages);
    await new Promise<void>((resolve) => {
      this.release = resolve;
      this.nowWaiting();
    });
    return onPages ? pages.map((page) => ({ ...page, text: '' })) : pages; // handed over: the contract lets a reader leave them out
  }
}
