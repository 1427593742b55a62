import fs from 'node:fs';
import type { PdfBytes } from './pdf-page-source.js';

/** The document's bytes: those given, or its file's, read whole (for the readers that need them all at once). */
export function wholeBytes(source: PdfBytes): Uint8Array {
  return source instanceof Uint8Array ? source : readWholeFile(source.file);
}

/**
 * A file's bytes in a plain Uint8Array that fills its own ArrayBuffer: pdf.js refuses a Buffer, and copies a view of
 * part of a larger buffer (small files' Buffers share a pool), which would be a second copy for the collector to find.
 */
function readWholeFile(file: string): Uint8Array {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = new Uint8Array(fs.fstatSync(fd).size);
    for (let done = 0; done < bytes.length; ) {
      const read = fs.readSync(fd, bytes, done, bytes.length - done, done);
      if (read === 0) throw new Error(`${file} ended after ${done} of ${bytes.length} bytes`);
      done += read;
    }
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}
