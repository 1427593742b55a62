import { UnprocessableDocumentError } from '../../core/domain/errors.js';

/**
 * The document took longer than the reader's per-document limit (its extraction process was killed). Unprocessable
 * rather than a server fault: it is almost always the document (hundreds of scanned pages), and the user can split it.
 */
export class ExtractionTimeoutError extends UnprocessableDocumentError {
  constructor(readonly timeoutMs: number) {
    super(`Reading the document took longer than ${describeDuration(timeoutMs)}; split it into smaller files and upload them separately`);
  }
}

/** The extraction child process died (out of memory, a native crash, killed by the OS). A server-side fault. */
export class ExtractionWorkerCrashedError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The document extraction worker stopped unexpectedly: ${detail}`, options);
    this.name = 'ExtractionWorkerCrashedError';
  }
}

function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms >= 1000) return `${Math.round(ms / 1000)} seconds`;
  return `${ms} ms`;
}
