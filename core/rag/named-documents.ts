/**
 * The documents a follow-up names ("What about Contoso?" in a session holding two reports): those whose own name holds
 * a name the question gives: the words of its file name, else of its title (the first line of its text: "CONTOSO
 * ANNUAL REPORT"). No list of names: a name is a word the question writes as one (core/rag/follow-up.ts followUpNames).
 */
import { fileNameTerms, termKey, wordTokens } from './text.js';

export interface NameableDocument {
  jobId: string;
  filename: string;
  /** The first line of its text, when read. */
  title?: string;
}

/** The longest title line read, in characters: a first line longer than this is prose, not a title. */
export const MAX_TITLE_CHARS = 160;

/**
 * The ids of the documents whose file name or title holds every word of one of `names`; none when no document or
 * every document does (then the names tell none apart).
 */
export function documentsNamedBy(names: readonly string[], documents: readonly NameableDocument[]): string[] {
  const wanted = names.map((name) => wordTokens(name).map(termKey)).filter((words) => words.length > 0);
  if (wanted.length === 0) return [];
  const named = documents.filter((document) => {
    const words = new Set([...fileNameTerms(document.filename), ...wordTokens(document.title ?? '').map(termKey)]);
    return wanted.some((name) => name.every((word) => words.has(word)));
  });
  return named.length === documents.length ? [] : named.map((document) => document.jobId);
}

/** A text's title line: its first line, when short enough to be one. */
export function titleLine(text: string): string | undefined {
  const first = text.trim().split('\n')[0]?.trim();
  return first && first.length <= MAX_TITLE_CHARS ? first : undefined;
}
