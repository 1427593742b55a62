import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { StoredDocument } from '../../core/ports/document-reader.js';

/** Bytes of a file's start that tell its type (content-type.ts: "%PDF-" may start anywhere in the first 1,024). */
const HEAD_BYTES = 1029;

/**
 * Writes the document to a private file (owner only), a piece at a time when it comes as a stream, so it is never
 * whole in this process; resolves to its first bytes, which tell its type. `signal` stops a copy under way, even one
 * whose source has stalled.
 */
export async function writeDocumentFile(document: StoredDocument, file: string, signal?: AbortSignal): Promise<Uint8Array> {
  if (typeof document !== 'function') {
    await fs.promises.writeFile(file, document, { mode: 0o600 });
    return document.subarray(0, HEAD_BYTES);
  }
  const head: Uint8Array[] = [];
  let headBytes = 0;
  async function* keepingHead(pieces: AsyncIterable<Uint8Array>) {
    for await (const piece of pieces) {
      if (headBytes < HEAD_BYTES) {
        head.push(new Uint8Array(piece.subarray(0, HEAD_BYTES - headBytes))); // a copy: the piece is the stream's
        headBytes += head.at(-1)!.length;
      }
      yield piece;
    }
  }
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const copying = pipeline(keepingHead(document()), out);
  if (signal) {
    // Not pipeline's own signal: it waits for the source to give its next piece, and a stalled store never does.
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([copying, aborted]);
    } catch (error) {
      out.destroy();
      copying.catch(() => {});
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  } else await copying;
  return Buffer.concat(head);
}
