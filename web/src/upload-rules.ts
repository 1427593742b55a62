/** The upload-URL route's rules (docs/api.md), checked before anything is sent, and told in a person's words. */
export const MAX_FILE_BYTES = 52_428_800;
/** The API's contract texts for these refusals: right for a client program, not for a person. */
const API_SIZE_ERROR = 'Maximum file size limit exceed';
const API_TYPE_ERROR = 'Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg';
export const TYPE_ERROR = 'Only PDF and JPEG files can be added';
const ALLOWED = new Set(['application/pdf', 'image/jpeg', 'image/jpg']);
const BY_EXTENSION: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** "This file is 60 MB; the limit is 50 MB" (binary megabytes, as the limit is 50 × 2^20 bytes). */
export function sizeError(bytes: number): string {
  const mb = bytes / 1_048_576;
  return `This file is ${mb < 100 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB; the limit is ${MAX_FILE_BYTES / 1_048_576} MB`;
}

/** The content type to declare, or why the file is refused. Size first, as the API checks it first. */
export function checkFile(file: File): { contentType: string } | { error: string } {
  if (file.size > MAX_FILE_BYTES) return { error: sizeError(file.size) };
  // Some systems report no type for a file: the extension decides then.
  const type = file.type || BY_EXTENSION[file.name.split('.').pop()?.toLowerCase() ?? ''] || '';
  if (!ALLOWED.has(type)) return { error: `${TYPE_ERROR} (this one is ${describeType(file)})` };
  return { contentType: type };
}

function describeType(file: File): string {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[1];
  if (extension) return `a .${extension.toLowerCase()} file`;
  return file.type ? `of type ${file.type}` : 'of an unknown type';
}

/** An API refusal the app checks for itself, in the app's words when the API had the last say (a changed file). */
export function forPeople(message: string, file: File): string {
  if (message === API_SIZE_ERROR) return sizeError(file.size);
  if (message === API_TYPE_ERROR) return TYPE_ERROR;
  return message;
}

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
