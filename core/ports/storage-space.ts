/**
 * The free space of the storage the service writes to (its data directory): watched so that new work is refused
 * before the disk is full, and a part of it held back so that deletions and failure records can still be written
 * once it is.
 */
export interface StorageSpace {
  /** Refuses new work that would store more (InsufficientStorageError) while free space is below the reserve. */
  ensureRoom(): Promise<void>;
  /** Whether `error` is the storage running out (a full disk, a database that could not grow). */
  isExhausted(error: unknown): boolean;
  /**
   * Gives a part of the space held back to whoever writes next (a deletion, a failure record); resolves true when
   * some was given, false when none is held any more. It is held back again once free space allows.
   */
  release(): Promise<boolean>;
  /**
   * After a deletion: while free space is below the reserve, gives back to the file system what the stores freed but
   * keep for reuse (a database's write-ahead log), so that it shows as free. Best effort, never throws.
   */
  reclaim?(): Promise<void>;
}
