import fs from 'node:fs';

/**
 * A file's bytes in a plain Uint8Array that fills its own ArrayBuffer: pdf.js refuses a Buffer, and copies a view of
 * part of a larger buffer (small files' Buffers share a pool), which would be a second copy for the collector to find.
 */
export function readWholeFile(file: string): Uint8Array {
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
