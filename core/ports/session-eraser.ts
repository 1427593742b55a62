/** What happens to the upload records of the files a session deletion removed. */
export interface ErasedUploads {
  /** Records to delete: their URL has expired, nothing can be uploaded under the key again. */
  remove: readonly string[];
  /**
   * Records to make pending again (ingestedAt and etag cleared): their URL still works, and an S3 URL can put the
   * object back; as pending records the sweep removes whatever is there once the URL has expired.
   */
  release: readonly string[];
}

/**
 * Deletes a session's records in one step: the session, its messages, its ingest jobs, and its files' upload
 * records as `uploads` says. All or nothing, so a deletion that fails can simply be tried again.
 */
export interface SessionEraser {
  erase(sessionId: string, uploads: ErasedUploads): Promise<void>;
  /**
   * Deletes some of a session's ingest jobs (only those of that session) and settles their files' upload records as
   * `uploads` says, in one step; the session and its messages stay.
   */
  eraseDocuments(sessionId: string, jobIds: readonly string[], uploads: ErasedUploads): Promise<void>;
}
