import { UnprocessableDocumentError } from '../../core/domain/errors.js';

export type DocumentKind = 'pdf' | 'jpeg';

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

/**
 * Maps the declared content type to what we parse, and refuses content that does not match its declaration
 * (checked on the calling thread: cheap, and a mismatch never costs a worker).
 */
export function resolveDocumentKind(bytes: Uint8Array, contentType: string): DocumentKind {
  // "application/pdf; charset=binary" and "Image/JPEG" are the same types.
  const declared = contentType.split(';')[0].trim().toLowerCase();
  let kind: DocumentKind;
  if (declared === 'application/pdf') kind = 'pdf';
  else if (declared === 'image/jpeg' || declared === 'image/jpg') kind = 'jpeg';
  else throw new UnprocessableDocumentError(`Unsupported file type "${declared}"; upload a PDF or a JPEG image`);

  if (bytes.length === 0) throw new UnprocessableDocumentError('The file is empty; upload the document again');
  if (kind === 'pdf' && !looksLikePdf(bytes)) {
    throw new UnprocessableDocumentError(`The file content is not a PDF although it was declared as ${declared}`);
  }
  if (kind === 'jpeg' && !looksLikeJpeg(bytes)) {
    throw new UnprocessableDocumentError(`The file content is not a JPEG image although it was declared as ${declared}`);
  }
  return kind;
}
