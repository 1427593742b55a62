/** The upload-URL route's rules and texts (docs/api.md), checked before anything is sent. */
export const MAX_FILE_BYTES = 52_428_800;
export const SIZE_ERROR = 'Maximum file size limit exceed';
export const TYPE_ERROR = 'Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg';
const ALLOWED = new Set(['application/pdf', 'image/jpeg', 'image/jpg']);
const BY_EXTENSION: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** The content type to declare, or the API's refusal text. Size first, as the API checks it first. */
export function checkFile(file: File): { contentType: string } | { error: string } {
  if (file.size > MAX_FILE_BYTES) return { error: SIZE_ERROR };
  // Some systems report no type for a file: the extension decides then.
  const type = file.type || BY_EXTENSION[file.name.split('.').pop()?.toLowerCase() ?? ''] || '';
  if (!ALLOWED.has(type)) return { error: TYPE_ERROR };
  return { contentType: type };
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
