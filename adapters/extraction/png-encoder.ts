import zlib from 'node:zlib';

/** On rendered pages level 1 was larger and no faster; level 6 took twice as long for files 12 % smaller. */
const DEFLATE_LEVEL = 3;
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** PNG colour types by the samples each pixel keeps. */
const COLOUR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;

/**
 * A PNG of an RGBA raster: 8-bit greyscale when every pixel is grey and opaque (a page of black text), RGB when all
 * are opaque (a rendered page, drawn on white), RGBA otherwise; no scanline filter (on rendered pages it compressed
 * better than Up). Written here, not by a library: on rendered pages of the long report @napi-rs/canvas took a median
 * 72 ms (no compression setting), pngjs 47-63 ms and fast-png 95 ms, while node:zlib deflates the same rows in ~11 ms
 * to a PNG a third to a half smaller.
 */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error(`expected ${width}x${height}x4 bytes, got ${rgba.length}`);
  const channels = samplesNeeded(rgba);
  const rowBytes = width * channels + 1; // a filter byte (0: none) before each row
  const rows = Buffer.alloc(rowBytes * height);
  for (let y = 0, src = 0; y < height; y++) {
    let dst = y * rowBytes + 1;
    if (channels === 1) for (let x = 0; x < width; x++, src += 4) rows[dst++] = rgba[src];
    else if (channels === 4) {
      rows.set(rgba.subarray(src, src + width * 4), dst);
      src += width * 4;
    } else {
      for (let x = 0; x < width; x++, src += 4) {
        rows[dst++] = rgba[src];
        rows[dst++] = rgba[src + 1];
        rows[dst++] = rgba[src + 2];
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = COLOUR_TYPE[channels];
  // compression 0 (deflate), filter method 0, no interlace: bytes 10-12 stay 0
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows, { level: DEFLATE_LEVEL })), chunk('IEND', Buffer.alloc(0))]);
}

/** 1 (grey, opaque), 3 (opaque) or 4: what the PNG must keep of each pixel. */
function samplesNeeded(rgba: Uint8Array | Uint8ClampedArray): 1 | 3 | 4 {
  let grey = true;
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i + 3] !== 255) return 4;
    if (grey && (rgba[i] !== rgba[i + 1] || rgba[i] !== rgba[i + 2])) grey = false;
  }
  return grey ? 1 : 3;
}

/** Length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
