/** The upload-URL route's rules (docs/api.md), checked before anything is sent, and told in a person's words. */
export const MAX_FILE_BYTES = 52_428_800;
/**
 * How long an upload may go without a byte reaching the storage server (or, once all are sent, without its answer)
 * before it is given up: a stalled PUT would otherwise show "uploading" forever and hold one of the few upload slots.
 */
export const UPLOAD_STALL_MS = 60_000;
/** The API's contract texts for these refusals: right for a client program, not for a person. */
const API_SIZE_ERROR = 'Maximum file size limit exceed';
const API_TYPE_PREFIX = 'Invalid File Type | Valid Type Are: ';

/** The types this server takes (GET /ingest/upload/types): the contract's three unless it turned more on. */
export interface UploadTypes {
  contentTypes: string[];
  /** Extension (no dot) → the type it implies. */
  extensions: Record<string, string>;
}

export const CONTRACT_UPLOAD_TYPES: UploadTypes = {
  contentTypes: ['application/pdf', 'image/jpeg', 'image/jpg'],
  extensions: { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg' },
};

/** "This file is 60 MB; the limit is 50 MB" (binary megabytes, as the limit is 50 × 2^20 bytes). */
export function sizeError(bytes: number): string {
  const mb = bytes / 1_048_576;
  return `This file is ${mb < 100 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB; the limit is ${MAX_FILE_BYTES / 1_048_576} MB`;
}

/** "Only PDF and JPEG files can be added", or the kinds this server takes. */
export function typeError(types: UploadTypes = CONTRACT_UPLOAD_TYPES): string {
  const kinds = kindsOf(types);
  const listed = kinds.length <= 2 ? kinds.join(' and ') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
  return `Only ${listed} files can be added`;
}

/** The content type to declare, or why the file is refused. Size first, as the API checks it first. */
export function checkFile(file: File, types: UploadTypes = CONTRACT_UPLOAD_TYPES): { contentType: string } | { error: string } {
  if (file.size > MAX_FILE_BYTES) return { error: sizeError(file.size) };
  const byName = types.extensions[file.name.split('.').pop()?.toLowerCase() ?? ''];
  // Some systems report no type for a file, or a generic one (.md, .eml are often ''): the extension decides then.
  const type = types.contentTypes.includes(file.type) ? file.type : byName ?? file.type;
  if (!types.contentTypes.includes(type)) return { error: `${typeError(types)} (this one is ${describeType(file)})` };
  return { contentType: type };
}

function describeType(file: File): string {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[1];
  if (extension) return `a .${extension.toLowerCase()} file`;
  return file.type ? `of type ${file.type}` : 'of an unknown type';
}

/** An API refusal the app checks for itself, in the app's words when the API had the last say (a changed file). */
export function forPeople(message: string, file: File, types: UploadTypes = CONTRACT_UPLOAD_TYPES): string {
  if (message === API_SIZE_ERROR) return sizeError(file.size);
  if (message.startsWith(API_TYPE_PREFIX)) return typeError(types);
  return message;
}

/** The file picker's `accept`: every extension and type taken. */
export function acceptAttribute(types: UploadTypes): string {
  return [...Object.keys(types.extensions).map((ext) => `.${ext}`), ...types.contentTypes].join(',');
}

/** The hint under the upload button, in the app's words: "PDF or JPEG", or the list of kinds this server takes. */
export function uploadHint(types: UploadTypes): string {
  const kinds = kindsOf(types);
  const listed = kinds.length <= 2 ? kinds.join(' or ') : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`;
  return `${listed}, up to 50 MB each; or drop files on the page.`;
}

/** The kinds of file the types name, documents first, then pictures, in the order of KIND_NAMES. */
function kindsOf(types: UploadTypes): string[] {
  const named = new Set(Object.keys(types.extensions).map((ext) => KIND_NAMES[ext] ?? ext.toUpperCase()));
  const order = [...new Set(Object.values(KIND_NAMES))];
  return [...named].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
}

const KIND_NAMES: Record<string, string> = {
  pdf: 'PDF', docx: 'Word', docm: 'Word', xlsx: 'Excel', xlsm: 'Excel', pptx: 'PowerPoint', pptm: 'PowerPoint',
  html: 'web page', htm: 'web page', md: 'Markdown', markdown: 'Markdown', txt: 'text', text: 'text', log: 'text', csv: 'CSV',
  eml: 'e-mail', jpg: 'JPEG', jpeg: 'JPEG', png: 'PNG', webp: 'WebP', tif: 'TIFF', tiff: 'TIFF', heic: 'HEIC', heif: 'HEIC',
};

/** "year=2024, client=acme" → tags; an entry without "=" is refused so nothing is silently dropped. */
export function parseTags(institution: string, others: string): Record<string, string> | { error: string } {
  const tags: Record<string, string> = {};
  if (institution.trim()) tags.institution = institution.trim();
  for (const entry of others.split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = entry.indexOf('=');
    if (at <= 0) return { error: `Tags are name=value pairs separated by commas: "${entry}" has no name=value` };
    tags[entry.slice(0, at).trim()] = entry.slice(at + 1).trim();
  }
  return tags;
}
