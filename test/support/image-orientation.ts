import { crc32 } from 'node:zlib';

/** EXIF's TIFF structure holding only an Orientation tag (IFD0, one entry), in either byte order. */
export function exifTiff(orientation: number, byteOrder: 'II' | 'MM' = 'MM'): Uint8Array {
  const little = byteOrder === 'II';
  const tiff = new DataView(new ArrayBuffer(26));
  tiff.setUint16(0, little ? 0x4949 : 0x4d4d);
  tiff.setUint16(2, 42, little);
  tiff.setUint32(4, 8, little); // IFD0 right after the header
  tiff.setUint16(8, 1, little); // one entry
  tiff.setUint16(10, 0x0112, little); // Orientation
  tiff.setUint16(12, 3, little); // type SHORT
  tiff.setUint32(14, 1, little); // count
  tiff.setUint16(18, orientation, little);
  tiff.setUint32(22, 0, little); // no next IFD
  return new Uint8Array(tiff.buffer);
}

/** A PNG with an eXIf chunk holding the orientation, right after IHDR (PNG 1.5 puts it before the image data). */
export function withPngOrientation(png: Uint8Array, orientation: number, byteOrder: 'II' | 'MM' = 'MM'): Uint8Array {
  const data = Buffer.from(exifTiff(orientation, byteOrder));
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('eXIf', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  const afterIhdr = 8 + 25; // signature, then IHDR: length, type, 13 bytes, CRC
  return Buffer.concat([png.subarray(0, afterIhdr), head, data, crc, png.subarray(afterIhdr)]);
}

/**
 * A WebP with an EXIF chunk holding the orientation: the file made extended (a VP8X chunk first, its EXIF flag set),
 * as cameras and phones write it. `prefix` keeps JPEG's "Exif\0\0" before the TIFF structure, as some writers do.
 */
export function withWebpOrientation(webp: Uint8Array, orientation: number, prefix = false): Uint8Array {
  const bytes = Buffer.from(webp);
  const chunks: { id: string; data: Buffer }[] = [];
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(at + 4);
    chunks.push({ id: bytes.toString('latin1', at, at + 4), data: bytes.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  if (chunks[0]?.id !== 'VP8X') {
    const { width, height } = webpSize(chunks[0]!);
    const vp8x = Buffer.alloc(10);
    vp8x.writeUIntLE(width - 1, 4, 3);
    vp8x.writeUIntLE(height - 1, 7, 3);
    chunks.unshift({ id: 'VP8X', data: vp8x });
  }
  chunks[0] = { id: 'VP8X', data: Buffer.from(chunks[0]!.data) };
  chunks[0].data[0]! |= 0x08; // EXIF present
  const exif = Buffer.from(exifTiff(orientation, 'II'));
  chunks.push({ id: 'EXIF', data: prefix ? Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exif]) : exif });
  const body = Buffer.concat([
    Buffer.from('WEBP', 'latin1'),
    ...chunks.map(({ id, data }) => {
      const head = Buffer.alloc(8);
      head.write(id, 0, 'latin1');
      head.writeUInt32LE(data.length, 4);
      return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
    }),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** Width and height of a simple WebP's image chunk (lossy VP8 or lossless VP8L). */
function webpSize({ id, data }: { id: string; data: Buffer }): { width: number; height: number } {
  if (id === 'VP8 ') return { width: data.readUInt16LE(6) & 0x3fff, height: data.readUInt16LE(8) & 0x3fff };
  if (id === 'VP8L') {
    const bits = data.readUInt32LE(1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  throw new Error(`not a simple WebP (first chunk ${id})`);
}

interface Box {
  type: string;
  start: number;
  end: number;
  /** Where its content starts (after the header, and a full box's version and flags). */
  body: number;
}

const FULL_BOXES = new Set(['meta', 'iloc', 'ipma', 'pitm']);

function boxesIn(bytes: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    boxes.push({ type, start: at, end: at + size, body: at + 8 + (FULL_BOXES.has(type) ? 4 : 0) });
    at += size;
  }
  return boxes;
}

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

function uint(bytes: Buffer, at: number, size: number): number {
  return size === 0 ? 0 : bytes.readUIntBE(at, size);
}

/**
 * A HEIC with rotation (irot: `rotate` quarter turns anti-clockwise) and/or mirroring (imir: 0 about the vertical
 * axis, 1 about the horizontal one) added to its primary image's properties, as a phone writes a photo taken
 * sideways: the properties go at the end of ipco, the primary item's ipma entry names them (essential), and every
 * iloc offset into the file moves by the bytes added before the image data.
 */
export function withHeicTransform(heic: Uint8Array, transform: { rotate?: number; mirror?: 0 | 1 }): Uint8Array {
  const bytes = Buffer.from(heic);
  const meta = boxesIn(bytes, 0, bytes.length).find((b) => b.type === 'meta')!;
  const inMeta = boxesIn(bytes, meta.body, meta.end);
  const find = (list: Box[], type: string) => list.find((b) => b.type === type)!;
  const pitm = find(inMeta, 'pitm');
  const primary = bytes[pitm.start + 8]! === 0 ? bytes.readUInt16BE(pitm.body) : bytes.readUInt32BE(pitm.body);
  const iprp = find(inMeta, 'iprp');
  const inIprp = boxesIn(bytes, iprp.start + 8, iprp.end);
  const ipco = find(inIprp, 'ipco');
  const properties = boxesIn(bytes, ipco.start + 8, ipco.end);
  const added: Buffer[] = [];
  if (transform.rotate !== undefined) added.push(box('irot', Buffer.from([transform.rotate & 3])));
  if (transform.mirror !== undefined) added.push(box('imir', Buffer.from([transform.mirror])));
  const newIndices = added.map((_, i) => properties.length + 1 + i);
  const newIpco = box('ipco', Buffer.concat([bytes.subarray(ipco.start + 8, ipco.end), ...added]));
  const newIpma = withAssociations(bytes, find(inIprp, 'ipma'), primary, newIndices);
  const newIprp = box('iprp', Buffer.concat(inIprp.map((b) => (b.type === 'ipco' ? newIpco : b.type === 'ipma' ? newIpma : bytes.subarray(b.start, b.end)))));
  const delta = newIprp.length - (iprp.end - iprp.start);
  const metaBody = Buffer.concat(inMeta.map((b) => (b.type === 'iprp' ? newIprp : b.type === 'iloc' ? movedIloc(bytes, b, delta) : bytes.subarray(b.start, b.end))));
  const newMeta = box('meta', Buffer.concat([bytes.subarray(meta.start + 8, meta.body), metaBody]));
  return Buffer.concat([bytes.subarray(0, meta.start), newMeta, bytes.subarray(meta.end)]);
}

/** The ipma box with essential associations to `indices` added to `item`'s entry. */
function withAssociations(bytes: Buffer, ipma: Box, item: number, indices: number[]): Buffer {
  const version = bytes[ipma.start + 8]!;
  const wide = (bytes[ipma.start + 11]! & 1) === 1;
  const idSize = version < 1 ? 2 : 4;
  const parts: Buffer[] = [bytes.subarray(ipma.start + 8, ipma.body + 4)];
  let at = ipma.body + 4;
  for (let entry = 0; entry < bytes.readUInt32BE(ipma.body); entry++) {
    const id = uint(bytes, at, idSize);
    const count = bytes[at + idSize]!;
    const size = idSize + 1 + count * (wide ? 2 : 1);
    if (id !== item) {
      parts.push(bytes.subarray(at, at + size));
    } else {
      const head = Buffer.from(bytes.subarray(at, at + idSize + 1));
      head[idSize] = count + indices.length;
      const more = indices.map((index) => (wide ? Buffer.from([0x80 | (index >> 8), index & 0xff]) : Buffer.from([0x80 | index])));
      parts.push(head, bytes.subarray(at + idSize + 1, at + size), ...more);
    }
    at += size;
  }
  return box('ipma', Buffer.concat(parts));
}

/** The iloc box with every offset into the file (construction method 0) moved by `delta`. */
function movedIloc(bytes: Buffer, iloc: Box, delta: number): Buffer {
  const out = Buffer.from(bytes.subarray(iloc.start, iloc.end));
  const base = iloc.start;
  const version = bytes[iloc.start + 8]!;
  const offsetSize = bytes[iloc.body]! >> 4;
  const lengthSize = bytes[iloc.body]! & 15;
  const baseSize = bytes[iloc.body + 1]! >> 4;
  const indexSize = version > 0 ? bytes[iloc.body + 1]! & 15 : 0;
  let at = iloc.body + 2;
  const itemCount = version < 2 ? bytes.readUInt16BE(at) : bytes.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < itemCount; item++) {
    at += version < 2 ? 2 : 4;
    const method = version > 0 ? bytes.readUInt16BE(at) & 15 : 0;
    at += (version > 0 ? 2 : 0) + 2; // construction method, data reference index
    const baseOffset = uint(bytes, at, baseSize);
    const moveBase = method === 0 && baseOffset !== 0;
    if (moveBase) out.writeUIntBE(baseOffset + delta, at - base, baseSize);
    at += baseSize;
    const extents = bytes.readUInt16BE(at);
    at += 2;
    for (let extent = 0; extent < extents; extent++) {
      at += indexSize;
      if (method === 0 && !moveBase) out.writeUIntBE(uint(bytes, at, offsetSize) + delta, at - base, offsetSize);
      at += offsetSize + lengthSize;
    }
  }
  return out;
}
