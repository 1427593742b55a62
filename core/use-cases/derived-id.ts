import { createHash } from 'node:crypto';

/**
 * A job id derived from what makes the job one of a kind (a session and a content; a mail's job and an attachment's
 * place), so that the same work done twice at once or again makes one job. A UUID's shape (version 8: custom), as
 * the other jobs' ids.
 */
export function derivedJobId(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
