import { ValidationError } from '../domain/errors.js';
import type { RecordMatches, RecordSearch } from '../ports/record-search.js';

/** Longest query accepted: a search box's words, not a pasted document. */
export const MAX_SEARCH_QUERY_LENGTH = 200;
/** Sessions and messages returned (each). */
export const SEARCH_RESULTS_LIMIT = 20;

export const EMPTY_SEARCH_QUERY = 'The search query must not be empty';
export const LONG_SEARCH_QUERY = `The search query must be at most ${MAX_SEARCH_QUERY_LENGTH} characters`;

/** Search over the user's own sessions (by name) and messages (by text). */
export class SearchRecords {
  constructor(private readonly records: RecordSearch) {}

  async execute(input: { userId: string; query: string }): Promise<RecordMatches> {
    const text = input.query.trim();
    if (text.length === 0) throw new ValidationError(EMPTY_SEARCH_QUERY);
    if (input.query.length > MAX_SEARCH_QUERY_LENGTH) throw new ValidationError(LONG_SEARCH_QUERY);
    return this.records.search({ userId: input.userId, text, limit: SEARCH_RESULTS_LIMIT });
  }
}
