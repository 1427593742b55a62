import { DomainError, UnprocessableDocumentError } from '../domain/errors.js';

/** The texts a failed ingest job's `error` shows the user. */

/** What the job's `error` says: the document's own problem as is, a dependency outage as such, anything else generic. */
export function userFacingReason(error: unknown): string {
  if (error instanceof UnprocessableDocumentError) return error.message;
  if (error instanceof DomainError && error.code === 'UPSTREAM_UNAVAILABLE') {
    return `A service needed for ingestion is unavailable (${error.message}); the file is kept: ingest it again later`;
  }
  if (error instanceof DomainError) return error.message;
  return 'Ingestion failed because of an internal error; try again, and report it if it persists';
}

/** A job that ran out of disk space (a full disk, a database that could not grow): not retried until space is freed. */
export const OUT_OF_DISK_SPACE_REASON =
  'Ingestion failed because the server is out of disk space; the file is kept: ingest it again once space has been freed';

/** An internal error that every allowed attempt ran into (runs that indexed further pages are not counted). */
export function internalFailure(attempts: number): string {
  return `Ingestion failed ${attempts} times because of an internal error; try again later, and report it if it persists`;
}

/** Runs that were cut short (the service died) before they indexed any further page, as many as allowed. */
export function cutShort(runs: number): string {
  return `Ingestion was started ${runs} times without finishing (each run was cut short before it indexed another page); upload the document again, and report it if this persists`;
}

/** Two runs in a row died reading the same page: the page itself stops its reader (memory, a crash), so no third. */
export function diedOnPage(page: number): string {
  return `Ingestion stopped twice while reading page ${page} (the process reading it was cut short there each time, e.g. out of memory); remove that page or split the document there and upload it again, and report it if this persists`;
}

/** Nothing to index: blank pages are no error, but a document of nothing else has nothing to answer from. */
export function noReadableText(pages: number, ocrSkippedPages: number): UnprocessableDocumentError {
  if (ocrSkippedPages === 0) return new UnprocessableDocumentError('The document contains no readable text');
  return new UnprocessableDocumentError(
    `The document contains no readable text: ${ocrSkippedPages} of its ${pages} pages needed OCR and were skipped ` +
      'because the document exceeds the limit of pages read by OCR; split it into smaller files',
  );
}

/** An error with its stack, for the log (never for the user). */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}
