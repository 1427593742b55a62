import { UnprocessableDocumentError } from '../../core/domain/errors.js';

/**
 * The names under which the operator sets each limit (server/config.ts reads them): a document that hits a limit
 * fails with a reason naming the limit and its value, so both the user and the operator know what to change.
 */
export const LIMIT_VARIABLES = {
  maxPages: 'MAX_DOCUMENT_PAGES',
  maxOcrPages: 'MAX_OCR_PAGES',
  pageTimeoutMs: 'EXTRACTION_PAGE_TIMEOUT_MS',
  msPerPage: 'EXTRACTION_MS_PER_PAGE',
  maxMemoryMb: 'EXTRACTION_MAX_MEMORY_MB',
} as const;

/**
 * The document took longer than its time budget (its extraction process was killed): one page longer than the page
 * limit, or the whole document longer than the limit scaled to its pages. Unprocessable rather than a server fault:
 * it is almost always the document (hundreds of scanned pages), and the user can split it.
 */
export class ExtractionTimeoutError extends UnprocessableDocumentError {
  constructor(message: string) {
    super(`${message}; split it into smaller files and upload them separately`);
  }

  static page(page: number, pageTimeoutMs: number): ExtractionTimeoutError {
    return new ExtractionTimeoutError(
      `Reading page ${page} took longer than ${describeDuration(pageTimeoutMs)}, the limit per page (${LIMIT_VARIABLES.pageTimeoutMs}=${pageTimeoutMs})`,
    );
  }

  static document(pages: number, budgetMs: number, pageTimeoutMs: number, msPerPage: number): ExtractionTimeoutError {
    return new ExtractionTimeoutError(
      `Reading the document's ${pages} pages took longer than its time budget of ${describeDuration(budgetMs)} ` +
        `(${LIMIT_VARIABLES.pageTimeoutMs}=${pageTimeoutMs} + ${pages} pages × ${LIMIT_VARIABLES.msPerPage}=${msPerPage})`,
    );
  }

  /** A page range of a long document (read by one of several processes) over its share of the time budget. */
  static range(first: number, last: number, budgetMs: number, pageTimeoutMs: number, msPerPage: number): ExtractionTimeoutError {
    return new ExtractionTimeoutError(
      `Reading pages ${first}-${last} of the document took longer than their time budget of ${describeDuration(budgetMs)} ` +
        `(${LIMIT_VARIABLES.pageTimeoutMs}=${pageTimeoutMs} + ${last - first + 1} pages × ${LIMIT_VARIABLES.msPerPage}=${msPerPage})`,
    );
  }
}

/** The extraction process grew past the memory limit while reading the document (it was killed). */
export class ExtractionMemoryLimitError extends UnprocessableDocumentError {
  constructor(readonly maxMemoryMb: number) {
    super(
      `Reading the document needed more than ${maxMemoryMb} MB of memory, the limit per extraction process ` +
        `(${LIMIT_VARIABLES.maxMemoryMb}=${maxMemoryMb}); split it into smaller files or reduce its image resolution`,
    );
  }
}

/** The extraction child process died (out of memory, a native crash, killed by the OS). A server-side fault. */
export class ExtractionWorkerCrashedError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The document extraction worker stopped unexpectedly: ${detail}`, options);
    this.name = 'ExtractionWorkerCrashedError';
  }
}

export function tooManyPagesMessage(pages: number, maxPages: number): string {
  return (
    `The document has ${pages.toLocaleString('en-US')} pages; the limit is ${maxPages.toLocaleString('en-US')} pages ` +
    `per document (${LIMIT_VARIABLES.maxPages}); split it into smaller files and upload them separately`
  );
}

export function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} seconds`; // 17500 → "17.5 seconds", not a rounded 18
  return `${ms} ms`;
}
