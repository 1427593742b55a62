import { readTiffOrientation } from '../jpeg-header.js';

/**
 * The EXIF orientation of a PNG or WebP photo (1 = upright), read from its chunks, as pdf.js's JPEG decoder leaves it
 * to us too. 1 when absent or unreadable; a damaged chunk list stops the search, never the reading.
 */
export function imageOrientation(kind: 'png' | 'webp', bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const exif = kind === 'png' ? pngExif(bytes, view) : webpExif(bytes, view);
  return (exif && exifOrientation(bytes, view, exif.start, exif.end)) ?? 1;
}

/**
 * A WebP whose EXIF chunk no decoder reads (renamed): Skia (@napi-rs/canvas 0.1) draws a WebP turned by that chunk
 * while it reports the stored width and height, so the picture came out cut; and it ignores the orientation behind
 * an "Exif\0\0" prefix, and PNG's always. Without the chunk it draws every one as stored, and the orientation read
 * above turns it, one way for all. The bytes themselves when there is no such chunk.
 */
export function webpForDecoding(bytes: Uint8Array): Uint8Array {
  const exif = webpExif(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (!exif) return bytes;
  const copy = Uint8Array.from(bytes);
  copy.set([0x58, 0x58, 0x49, 0x46], exif.start - 8); // "XXIF": an unknown chunk, skipped by readers
  return copy;
}

interface Span {
  start: number;
  end: number;
}

/** PNG 1.5's eXIf chunk (before the image data, though some writers put it after): length, type, data, CRC. */
function pngExif(bytes: Uint8Array, view: DataView): Span | undefined {
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = latin1(bytes, at + 4, 4);
    const start = at + 8;
    if (start + length > bytes.length) return undefined;
    if (type === 'eXIf') return { start, end: start + length };
    if (type === 'IEND') return undefined;
    at = start + length + 4;
  }
  return undefined;
}

/** The EXIF chunk of an extended WebP (RIFF: a four-letter id, a little-endian size, the data padded to even). */
function webpExif(bytes: Uint8Array, view: DataView): Span | undefined {
  if (latin1(bytes, 0, 4) !== 'RIFF' || latin1(bytes, 8, 4) !== 'WEBP') return undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const start = at + 8;
    if (start + size > bytes.length) return undefined;
    if (latin1(bytes, at, 4) === 'EXIF') return { start, end: start + size };
    at = start + size + (size % 2);
  }
  return undefined;
}

/** The TIFF structure, after the "Exif\0\0" prefix some writers keep from JPEG's APP1 segment. */
function exifOrientation(bytes: Uint8Array, view: DataView, start: number, end: number): number | undefined {
  const tiff = latin1(bytes, start, 6) === 'Exif\0\0' ? start + 6 : start;
  return readTiffOrientation(view, tiff, end);
}

function latin1(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}
