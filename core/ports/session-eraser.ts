/**
 * Deletes a session's records in one step: the session, its messages, its ingest jobs and the given upload records.
 * All or nothing, so a deletion that fails can simply be tried again.
 */
export interface SessionEraser {
  erase(sessionId: string, uploadKeys: readonly string[]): Promise<void>;
}
