import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { imageOrientation, webpForDecoding } from './image-orientation.js';

/** Decoding needs several bytes per pixel at once; 50 MP covers full-resolution phone photos (as for JPEG). */
export const MAX_IMAGE_PIXELS = 50_000_000;

export type ImageKind = 'png' | 'webp' | 'tiff' | 'heic';

/** An image's pages (a TIFF may have many; the others have one), decoded one at a time when asked. */
export interface ImagePages {
  count: number;
  /** RGBA pixels of page `index` (0-based), and its EXIF/TIFF orientation (1 = upright). */
  page(index: number): Promise<{ rgba: Uint8ClampedArray; width: number; height: number; orientation: number }>;
  close(): void;
}

export function tooLarge(width: number, height: number): UnprocessableDocumentError {
  return new UnprocessableDocumentError(
    `The image is too large (${Math.round((width * height) / 1e6)} megapixels); upload an image of at most ${MAX_IMAGE_PIXELS / 1e6} megapixels`,
  );
}

function checkSize(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new UnprocessableDocumentError('The image could not be decoded (it is damaged or truncated)');
  if (width * height > MAX_IMAGE_PIXELS) throw tooLarge(width, height);
}

/**
 * Opens an image for OCR. PNG and WebP are decoded by @napi-rs/canvas (Skia, already the PDF path's raster library)
 * as stored, their EXIF orientation (PNG's eXIf chunk, WebP's EXIF chunk) read by us;
 * TIFF by utif2 (maintained UTIF.js, pure JavaScript, every page and the usual compressions, the Orientation tag
 * read); HEIC by heic-decode (libheif compiled to WebAssembly, bundled: nothing is downloaded), which applies the
 * photo's rotation and mirroring itself (irot, imir: the page comes upright). A native decoder that crashes on a crafted file takes down only this extraction process.
 */
export async function openImagePages(kind: ImageKind, bytes: Uint8Array): Promise<ImagePages> {
  if (kind === 'tiff') return tiffPages(bytes);
  if (kind === 'heic') return heicPages(bytes);
  if (kind === 'png' && bytes.length >= 24) checkSize(readUint32(bytes, 16), readUint32(bytes, 20)); // IHDR, before decoding
  const { Image, createCanvas } = await import('@napi-rs/canvas');
  const orientation = imageOrientation(kind, bytes);
  const decodable = kind === 'webp' ? webpForDecoding(bytes) : bytes;
  const image = new Image();
  image.src = Buffer.from(decodable.buffer, decodable.byteOffset, decodable.byteLength);
  checkSize(image.width, image.height);
  return {
    count: 1,
    async page() {
      const canvas = createCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      return { rgba: context.getImageData(0, 0, image.width, image.height).data, width: image.width, height: image.height, orientation };
    },
    close() {},
  };
}

function readUint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

/**
 * The number of image directories (pages) in a TIFF's chain, walked before utif2 decodes it: utif2 follows the chain
 * without end, so a crafted TIFF whose chain loops would hold the process until its time limit. A loop is refused.
 */
export function tiffDirectoryCount(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const seen = new Set<number>();
  let offset = bytes.length >= 8 ? view.getUint32(4, little) : 0;
  while (offset !== 0) {
    if (seen.has(offset)) throw new UnprocessableDocumentError('The TIFF image is damaged: its chain of pages loops');
    if (offset + 2 > bytes.length) throw new UnprocessableDocumentError('The TIFF image is damaged or truncated');
    seen.add(offset);
    const entries = view.getUint16(offset, little);
    const next = offset + 2 + entries * 12;
    if (next + 4 > bytes.length) throw new UnprocessableDocumentError('The TIFF image is damaged or truncated');
    offset = view.getUint32(next, little);
  }
  return seen.size;
}

async function tiffPages(bytes: Uint8Array): Promise<ImagePages> {
  tiffDirectoryCount(bytes);
  const UTIF = (await import('utif2')).default;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let ifds;
  try {
    // Sub-images (thumbnails, EXIF) are not pages: only the main chain of directories.
    ifds = UTIF.decode(buffer).filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined);
  } catch (error) {
    throw new UnprocessableDocumentError('The TIFF image could not be decoded (it is damaged or truncated)', { cause: error });
  }
  if (ifds.length === 0) throw new UnprocessableDocumentError('The TIFF file holds no image');
  return {
    count: ifds.length,
    async page(index) {
      const ifd = ifds[index]!;
      checkSize(Number((ifd.t256 as number[])[0]), Number((ifd.t257 as number[])[0]));
      try {
        UTIF.decodeImage(buffer, ifd);
        const rgba = new Uint8ClampedArray(UTIF.toRGBA8(ifd).buffer);
        const orientation = Number((ifd.t274 as number[] | undefined)?.[0] ?? 1);
        const page = { rgba, width: ifd.width, height: ifd.height, orientation };
        ifd.data = new Uint8Array(0); // the decoded pixels of a page are not kept once it is read
        return page;
      } catch (error) {
        throw new UnprocessableDocumentError(`Page ${index + 1} of the TIFF image could not be decoded (it is damaged or uses an unsupported compression)`, { cause: error });
      }
    },
    close() {},
  };
}

async function heicPages(bytes: Uint8Array): Promise<ImagePages> {
  const decode = (await import('heic-decode')).default;
  let images;
  try {
    images = await decode.all({ buffer: bytes });
  } catch (error) {
    throw new UnprocessableDocumentError('The HEIC image could not be decoded (it is damaged, or not a HEIC image)', { cause: error });
  }
  if (images.length === 0) throw new UnprocessableDocumentError('The HEIC file holds no image');
  // A HEIC from a phone holds the photo first (later images: bursts, depth maps): the photo is the page.
  const photo = images[0]!;
  return {
    count: 1,
    async page() {
      checkSize(photo.width, photo.height);
      const { data, width, height } = await photo.decode();
      return { rgba: data, width, height, orientation: 1 };
    },
    close: () => images.dispose(),
  };
}
