/** Error codes the core raises; the HTTP layer maps each to one status (server/http/errors.ts). */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'UPSTREAM_UNAVAILABLE'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'QUOTA_EXCEEDED'
  | 'LIMIT_REACHED'
  | 'INSUFFICIENT_STORAGE';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string) {
    super('VALIDATION', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Unauthorized Access', options?: { cause?: unknown }) {
    super('UNAUTHENTICATED', message, options);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

/** A dependency (identity provider, object store, index, model server) did not answer. Not the client's fault. */
export class UpstreamUnavailableError extends DomainError {
  constructor(
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('UPSTREAM_UNAVAILABLE', message, options);
  }
}

/** The dependency RecordsUnavailableError names (the API's `unavailable`, readiness' "database"). */
export const RECORDS_DEPENDENCY = 'database';

/**
 * The service's own records (sessions, messages, jobs) could not be read or written: their database did not answer.
 * An ingest job that meets it is retried like an internal error (it could not even record a failure), not failed.
 */
export class RecordsUnavailableError extends UpstreamUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(RECORDS_DEPENDENCY, message, options);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/** A document that cannot be turned into text (encrypted, malformed, empty, wrong type); the message is shown to the user. */
export class UnprocessableDocumentError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('UNPROCESSABLE', message, options);
  }
}

/** The user's stored files would exceed their storage quota. */
export class QuotaExceededError extends DomainError {
  constructor(message: string) {
    super('QUOTA_EXCEEDED', message);
  }
}

/** The user has too many of something outstanding (pending uploads); they may try again once some are done. */
export class LimitReachedError extends DomainError {
  constructor(message: string) {
    super('LIMIT_REACHED', message);
  }
}

/** What a refused upload or ingest says (507) while the server's data directory is below its free-space reserve. */
export const OUT_OF_DISK_SPACE =
  'The server is out of disk space: new uploads and ingests are refused until space is freed (delete sessions or documents you no longer need)';

/** The server's storage is (nearly) full: new work that would store more is refused; reads and deletes go on. */
export class InsufficientStorageError extends DomainError {
  constructor(message = OUT_OF_DISK_SPACE, options?: { cause?: unknown }) {
    super('INSUFFICIENT_STORAGE', message, options);
  }
}

/** A read or a job stopped because it was cancelled (its session or job was deleted); nothing is to be reported to anyone. */
export class ReadCancelledError extends Error {
  constructor(message = 'Cancelled') {
    super(message);
    this.name = 'ReadCancelledError';
  }
}

/** Why a running job's signal was aborted: 'cancelled' (its session was deleted) or 'shutdown' (resumed at next start). */
export class JobStoppedError extends ReadCancelledError {
  constructor(readonly why: 'cancelled' | 'shutdown') {
    super(why === 'cancelled' ? 'The ingest job was cancelled' : 'The service is stopping');
    this.name = 'JobStoppedError';
  }
}

export const INGEST_ALREADY_ACTIVE = 'An ingest job for this key is already queued or processing';

/** POST /ingest/process for a key whose job is still queued or processing: 409 with that job's id. */
export class IngestAlreadyActiveError extends ConflictError {
  constructor(readonly jobId: string) {
    super(INGEST_ALREADY_ACTIVE);
  }
}

/** The one text used for every unknown or foreign session, so the two cannot be told apart. */
export const SESSION_NOT_FOUND = 'Session not found';
