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

/**
 * Said when the semantic search (the vector index, or the model that embeds the question) did not answer: the answer
 * then draws on the word search alone, and may miss passages that say the same in other words.
 */
export const SEMANTIC_SEARCH_UNAVAILABLE_NOTE =
  '(Semantic search is unavailable at the moment: this answer draws on a search of the documents\' words only.)';

/** Said when the language model did not answer and the service's own extractive answer stands in (ANSWER_FALLBACK). */
export const LANGUAGE_MODEL_UNAVAILABLE_NOTE =
  '(The language model is unavailable at the moment: this answer quotes the documents\' passages instead.)';

/** Notes joined as they appear under an answer (a blank line between two); none when there is none. */
export function joinNotes(...notes: (string | undefined)[]): string | undefined {
  return notes.filter(Boolean).join('\n\n') || undefined;
}

/**
 * Said under an answer whose question and answer could not be stored in the chat history: the answer is given all
 * the same, but will not be in the history (nor recalled by a follow-up question).
 */
export function notSavedNote(outOfDiskSpace: boolean): string {
  return outOfDiskSpace
    ? '(This answer was not saved in the chat history: the server is out of disk space.)'
    : '(This answer could not be saved in the chat history.)';
}
