/** The upload-URL route's rules and texts (docs/api.md), checked before anything is sent. */
export const MAX_FILE_BYTES = 52_428_800;
export const SIZE_ERROR = 'Maximum file size limit exceed';
export const TYPE_ERROR = 'Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg';

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

/** The content type to declare, or the API's refusal text. Size first, as the API checks it first. */
export function checkFile(file: File, types: UploadTypes = CONTRACT_UPLOAD_TYPES): { contentType: string } | { error: string } {
  if (file.size > MAX_FILE_BYTES) return { error: SIZE_ERROR };
  const byName = types.extensions[file.name.split('.').pop()?.toLowerCase() ?? ''];
  // Some systems report no type for a file, or a generic one (.md, .eml are often ''): the extension decides then.
  const type = types.contentTypes.includes(file.type) ? file.type : byName ?? file.type;
  if (!types.contentTypes.includes(type)) return { error: `Invalid File Type | Valid Type Are: ${types.contentTypes.join(', ')}` };
  return { contentType: type };
}

/** The file picker's `accept`: every extension and type taken. */
export function acceptAttribute(types: UploadTypes): string {
  return [...Object.keys(types.extensions).map((ext) => `.${ext}`), ...types.contentTypes].join(',');
}

/** The hint under the upload button, in the app's words: "PDF or JPEG", or the list of kinds this server takes. */
export function uploadHint(types: UploadTypes): string {
  const named = new Set(Object.keys(types.extensions).map((ext) => KIND_NAMES[ext] ?? ext.toUpperCase()));
  // Documents first, then pictures, in the order of KIND_NAMES.
  const order = [...new Set(Object.values(KIND_NAMES))];
  const kinds = [...named].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const listed = kinds.length <= 2 ? kinds.join(' or ') : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`;
  return `${listed}, up to 50 MB each; or drop files on the page.`;
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
