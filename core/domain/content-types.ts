import { ALLOWED_CONTENT_TYPES } from './model.js';

/**
 * Every file type a reader exists for, with the file name extensions that imply it. The contract's three (PDF, JPEG)
 * are always accepted; the others only when the deployment turns them on (ACCEPTED_TYPES), so the contract's
 * refusal text stays exactly as written by default.
 */
export const DOCUMENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/jpg': [],
  'text/plain': ['txt', 'text', 'log'],
  'text/markdown': ['md', 'markdown'],
  'text/html': ['html', 'htm'],
  'text/csv': ['csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx', 'xlsm'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx', 'docm'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx', 'pptm'],
  'message/rfc822': ['eml'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/tiff': ['tif', 'tiff'],
  'image/heic': ['heic', 'heif'],
};

/** The types beyond the contract's three that a reader exists for (what ACCEPTED_TYPES=all turns on). */
export const EXTRA_DOCUMENT_TYPES: readonly string[] = Object.keys(DOCUMENT_TYPES).filter(
  (type) => !(ALLOWED_CONTENT_TYPES as readonly string[]).includes(type),
);

/** "Text/HTML; charset=utf-8" and "text/html" are one type. */
export function baseContentType(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase();
}

/**
 * The file types this deployment takes: the contract's three, then the extra ones it turned on, in that order. The
 * refusal text lists exactly these, after the contract's own prefix.
 */
export class AcceptedTypes {
  readonly list: readonly string[];
  private readonly byExtension = new Map<string, string>();

  constructor(extra: readonly string[] = []) {
    const unknown = extra.filter((type) => !Object.hasOwn(DOCUMENT_TYPES, baseContentType(type)));
    if (unknown.length > 0) throw new Error(`No reader for ${unknown.join(', ')}`);
    this.list = [...new Set([...ALLOWED_CONTENT_TYPES, ...extra.map(baseContentType)])];
    for (const type of this.list) for (const ext of DOCUMENT_TYPES[type] ?? []) this.byExtension.set(ext, type);
  }

  /** Only exactly an accepted type: the contract compares the declared text as it is. */
  accepts(type: string): boolean {
    return this.list.includes(type);
  }

  get typeError(): string {
    return `Invalid File Type | Valid Type Are: ${this.list.join(', ')}`;
  }

  /** The extensions of the accepted types and the type each implies ({ pdf: "application/pdf", ... }), for clients. */
  get extensions(): Record<string, string> {
    return Object.fromEntries(this.byExtension);
  }

  /** The accepted type implied by a file name's extension, or null. */
  fromName(filename: string): string | null {
    const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
    return (ext && this.byExtension.get(ext)) ?? null;
  }
}

/** What a deployment takes when it turns nothing on: exactly the contract's three types. */
export const CONTRACT_TYPES = new AcceptedTypes();
