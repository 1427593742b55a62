import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ImageKind } from './formats/image-pages.js';

/** What the readers of formats without pages take (adapters/extraction/formats): each becomes units, its "pages". */
export type StructuredKind = 'text' | 'markdown' | 'html' | 'csv' | 'xlsx' | 'docx' | 'pptx' | 'eml';
export type DocumentKind = 'pdf' | 'jpeg' | ImageKind | StructuredKind;

/** The kind read for each declared type (ACCEPTED_TYPES decides which of these uploads may have). */
const KIND_OF_TYPE: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/html': 'html',
  'text/csv': 'csv',
  'message/rfc822': 'eml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/** The kind read for a declared type, or undefined when none is. */
export function kindOfType(contentType: string): DocumentKind | undefined {
  const declared = contentType.split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(KIND_OF_TYPE, declared) ? KIND_OF_TYPE[declared] : undefined;
}

/** How each kind is named in a refusal. */
const NAMES: Record<DocumentKind, string> = {
  pdf: 'a PDF', jpeg: 'a JPEG image', png: 'a PNG image', webp: 'a WebP image', tiff: 'a TIFF image', heic: 'a HEIC image',
  text: 'text', markdown: 'text', html: 'text', csv: 'text', eml: 'text', xlsx: 'a zip package', docx: 'a zip package', pptx: 'a zip package',
};

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
/** Acrobat (and pdf.js) accept the header anywhere in the first 1024 bytes, after junk some mail gateways prepend. */
const PDF_HEADER_WINDOW = 1024;

export function looksLikePdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - PDF_MAGIC.length, PDF_HEADER_WINDOW);
  for (let start = 0; start <= end; start++) {
    if (PDF_MAGIC.every((b, i) => bytes[start + i] === b)) return true;
  }
  return false;
}

export function looksLikeJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The binary kind the first bytes show (magic numbers), or undefined for anything else (text, or unknown). */
export function sniffBinaryKind(bytes: Uint8Array): 'pdf' | 'jpeg' | ImageKind | 'zip' | undefined {
  if (looksLikeJpeg(bytes)) return 'jpeg';
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(bytes, 4, 8) === 'ftyp' && /^(?:heic|heix|hevc|hevx|mif1|msf1)$/.test(ascii(bytes, 8, 12))) return 'heic';
  if (ascii(bytes, 0, 4) === 'PK\x03\x04') return 'zip';
  if (looksLikePdf(bytes)) return 'pdf';
  return undefined;
}

/**
 * Maps the declared content type to what we parse, and refuses content that does not match its declaration
 * (checked on the calling thread from the first bytes: cheap, and a mismatch never costs a worker). Which Office
 * format a zip package is, is told by its parts, in the extraction process.
 */
export function resolveDocumentKind(bytes: Uint8Array, contentType: string): DocumentKind {
  // "application/pdf; charset=binary" and "Image/JPEG" are the same types.
  const declared = contentType.split(';')[0]!.trim().toLowerCase();
  const kind = kindOfType(declared);
  if (!kind) throw new UnprocessableDocumentError(`Unsupported file type "${declared}"; upload a PDF or a JPEG image`);

  if (bytes.length === 0) throw new UnprocessableDocumentError('The file is empty; upload the document again');
  if (kind === 'pdf' && !looksLikePdf(bytes)) {
    throw new UnprocessableDocumentError(`The file content is not a PDF although it was declared as ${declared}`);
  }
  if (kind === 'jpeg' && !looksLikeJpeg(bytes)) {
    throw new UnprocessableDocumentError(`The file content is not a JPEG image although it was declared as ${declared}`);
  }
  if (kind === 'pdf' || kind === 'jpeg') return kind;
  const sniffed = sniffBinaryKind(bytes);
  const expected = kind === 'xlsx' || kind === 'docx' || kind === 'pptx' ? 'zip' : NAMES[kind] === 'text' ? undefined : kind;
  if (sniffed !== expected) {
    const found = sniffed === undefined ? 'text or of an unknown format' : sniffed === 'zip' ? 'a zip package' : NAMES[sniffed];
    throw new UnprocessableDocumentError(`The file content is ${found}, not ${NAMES[kind]}, although it was declared as ${declared}`);
  }
  return kind;
}
