/**
 * Lines of the service's own under an answer, whichever answerer wrote it: what the answer could not draw on.
 */

/** How many file names a note lists before "and N more". */
const NAMED = 2;

/**
 * Said while documents the question was asked of are still queued or being read: their text is not searched yet, so
 * an answer (or "not found") right after an upload would otherwise read as final. None when there are none.
 */
export function stillReadingNote(filenames: readonly string[]): string | undefined {
  if (filenames.length === 0) return undefined;
  const more = filenames.length > NAMED ? ` and ${filenames.length - NAMED} more` : '';
  const one = filenames.length === 1;
  return `(Still reading ${filenames.slice(0, NAMED).join(', ')}${more}: this answer does not draw on ${one ? 'it' : 'them'} ` +
    `yet. Ask again once ${one ? 'it is' : 'they are'} done.)`;
}
