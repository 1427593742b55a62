import type { ExtractedPage } from '../domain/model.js';

/**
 * A stored document: its bytes, or a function that reads them a piece at a time (BlobStore.stream), called when the
 * adapter gets to it, so a document waiting its turn is not held in memory.
 */
export type StoredDocument = Uint8Array | (() => AsyncIterable<Uint8Array>);

/** A part of a document that is a document of its own (an e-mail's attachment), for the caller to ingest as one. */
export interface DocumentAttachment {
  /** Its name in the document ("contract.pdf"). */
  filename: string;
  /** The type it declared, else the one its name implies: the caller checks it against the types it takes. */
  contentType: string;
  bytes: Uint8Array;
}

export interface ReadDocumentRequest {
  document: StoredDocument;
  /** The declared type: application/pdf, image/jpeg or image/jpg. */
  contentType: string;
  /**
   * The first page to read (default 1): a run going on from an earlier one's checkpoint. Pages before it are neither
   * read nor handed over, read() resolves with the pages from it on ([] when the document has fewer pages), and
   * onProgress still tells the fraction of the whole document. A document whose pages from here have no text is no
   * error (the pages before had some).
   */
  firstPage?: number;
  /** Called with 0..1 as pages are done. */
  onProgress?: (fraction: number) => void;
  /**
   * Called with the page being read as it moves on: the earliest page not yet read of those being read. A reader that
   * dies now (its process killed, out of memory) died on that page. `ocr` says that page is being recognised by OCR
   * (a scan or a photo: slower, and worth telling a person); called again when that changes. Optional for readers.
   */
  onReading?: (page: number, ocr?: boolean) => void;
  /**
   * Called once the reader knows how many pages the whole document has (before most are read): a person is told
   * "page 52 of 194". Optional for readers.
   */
  onPageCount?: (pages: number) => void;
  /**
   * Called with pages as soon as their text is final, in page order, each page once, all of them before read()
   * resolves: a caller can chunk and index a long document while its later pages are still being read. read() still
   * resolves with every page, but may leave out ('') the text of pages it handed over, so that a long document's
   * text is not held twice. A reader that cannot tell earlier may call it once, with all pages, at the end.
   */
  onPages?: (pages: ExtractedPage[]) => void;
  /**
   * Called once when the reader has started reading the document's last pages: it has nothing more of this document
   * to start, so capacity it frees from then on (an idle extraction process) can serve another document. Optional
   * for readers; one that cannot tell calls it never (the caller then takes read()'s end as that moment).
   */
  onLastPagesStarted?: () => void;
  /**
   * Aborted when the job is cancelled (its session or job deleted): the reader stops working on this document at
   * once (a running extraction is stopped, a queued one never starts) and read() rejects with ReadCancelledError.
   */
  signal?: AbortSignal;
  /**
   * Called at most once, before read() resolves, with the document's parts that are documents of their own (an
   * e-mail's attachments, in the mail's order); their text is not among its pages, which name them. Called whatever
   * firstPage is: a run going on from a checkpoint is told them again (the caller makes each one once). Optional.
   */
  onAttachments?: (attachments: DocumentAttachment[]) => void;
}

/**
 * Turns a PDF or a photographed page into text, page by page (PDF text layer, OCR where a page has none).
 * Throws UnprocessableDocumentError with a reason a user can act on: encrypted, malformed, empty, type mismatch.
 */
export interface DocumentReader {
  read(request: ReadDocumentRequest): Promise<ExtractedPage[]>;
}
