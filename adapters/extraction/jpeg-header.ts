/**
 * Minimal JPEG header reading: image size (SOF segment) and EXIF orientation (tag 0x0112 of IFD0 in the APP1
 * "Exif" segment, either byte order). Our JPEG decoder (pdf.js) ignores EXIF, and tesseract.js's own check only
 * matches big-endian ("MM") EXIF while most phones write little-endian ("II"), so we rotate ourselves.
 */

export interface JpegHeader {
  /** EXIF orientation 1..8 (1 = upright), 1 when absent or unreadable. */
  orientation: number;
  /** From the first frame header; undefined when there is none before the image data (not a decodable JPEG). */
  width?: number;
  height?: number;
}

const ORIENTATION_TAG = 0x0112;
const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"

export function readJpegHeader(jpeg: Uint8Array): JpegHeader {
  const header: JpegHeader = { orientation: 1 };
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return header;
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let offset = 2;
  while (offset + 4 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) break; // lost sync: not a well-formed marker sequence
    const marker = jpeg[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // image data starts: headers come before it
    const length = view.getUint16(offset + 2);
    const start = offset + 4;
    const end = Math.min(offset + 2 + length, jpeg.length);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && header.width === undefined && end - start >= 5) {
      header.height = view.getUint16(start + 1);
      header.width = view.getUint16(start + 3);
    }
    if (marker === 0xe1 && end - start > EXIF_HEADER.length && EXIF_HEADER.every((b, i) => jpeg[start + i] === b)) {
      header.orientation = readTiffOrientation(view, start + EXIF_HEADER.length, end) ?? header.orientation;
    }
    offset += 2 + length;
  }
  return header;
}

/** The Orientation tag of IFD0 in EXIF's TIFF structure at `tiff` (either byte order), read no further than `end`. */
export function readTiffOrientation(view: DataView, tiff: number, end: number): number | undefined {
  if (tiff + 8 > end) return undefined;
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined; // "II" little-endian, "MM" big-endian
  const little = order === 0x4949;
  if (view.getUint16(tiff + 2, little) !== 42) return undefined;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return undefined;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return undefined;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    const value = view.getUint16(entry + 8, little); // SHORT, stored left-aligned in the 4-byte value field
    return value >= 1 && value <= 8 ? value : undefined;
  }
  return undefined;
}
