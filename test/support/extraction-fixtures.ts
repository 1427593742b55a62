import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PDFDocument, degrees } from 'pdf-lib';
import { exifTiff } from './image-orientation.js';
import { CORPUS_AVAILABLE, corpusPath } from './paths.js';

/** A file of the real-document corpus (see paths.ts); call it in hooks and tests, never while suites are defined. */
export function readData(relativePath: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(corpusPath(relativePath)));
}

/** A corpus PDF with every page turned by /Rotate, as scanners and "rotate page" in viewers save it. */
export async function rotatedData(relativePath: string, angle: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(readData(relativePath));
  for (const page of doc.getPages()) page.setRotation(degrees(angle));
  return doc.save();
}

export function readDataText(relativePath: string): string {
  return fs.readFileSync(corpusPath(relativePath), 'utf8');
}

/** Corpus files of a folder matching the pattern; none without the corpus (their suites are skipped then). */
export function listData(folder: string, pattern: RegExp): string[] {
  if (!CORPUS_AVAILABLE) return [];
  return fs
    .readdirSync(corpusPath(folder))
    .filter((name) => pattern.test(name))
    .sort();
}

/** Lower-cased words (letters and digits, inner "." "," "'" "-" kept) for overlap measures. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}](?:[\p{L}\p{N}.,'’-]*[\p{L}\p{N}])?/gu) ?? [];
}

/** Share of the reference's words (with multiplicity) found in the candidate. */
export function wordRecall(reference: string, candidate: string): number {
  const { found, wanted } = wordOverlap(reference, candidate);
  return wanted === 0 ? 1 : found / wanted;
}

/** The reference's words (with multiplicity) found in the candidate, of how many it has; and the candidate's count. */
export function wordOverlap(reference: string, candidate: string): { found: number; wanted: number; read: number } {
  const read = words(candidate);
  const available = new Map<string, number>();
  for (const word of read) available.set(word, (available.get(word) ?? 0) + 1);
  const wanted = words(reference);
  let found = 0;
  for (const word of wanted) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found++;
      available.set(word, left - 1);
    }
  }
  return { found, wanted: wanted.length, read: read.length };
}

/** A copy of a JPEG without its APP1 (EXIF/XMP) segments: decoders then see the pixels as stored. */
export function withoutApp1Segments(jpeg: Uint8Array): Uint8Array {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  const parts: Uint8Array[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff && jpeg[offset + 1] !== 0xda) {
    const length = view.getUint16(offset + 2);
    if (jpeg[offset + 1] !== 0xe1) parts.push(jpeg.subarray(offset, offset + 2 + length));
    offset += 2 + length;
  }
  parts.push(jpeg.subarray(offset));
  return Buffer.concat(parts);
}

/**
 * A copy of a JPEG with an EXIF segment holding only the given orientation, inserted right after SOI: rotated
 * fixtures without touching the shared data.
 */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, byteOrder: 'II' | 'MM'): Uint8Array {
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(orientation, byteOrder)]);
  const segment = Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}

/**
 * The share of `work`'s wall time the event loop spent running code rather than waiting (event-loop utilisation):
 * near 1 when the work runs on the loop, whatever the machine's speed; low when it runs in another process. A share,
 * not a stall in ms: on a busy CI machine a garbage collection or a descheduled moment lengthens any one stall.
 */
export async function eventLoopBusyShare<T>(work: () => Promise<T>): Promise<{ result: T; busyShare: number }> {
  const before = performance.eventLoopUtilization();
  const result = await work();
  return { result, busyShare: performance.eventLoopUtilization(before).utilization };
}
