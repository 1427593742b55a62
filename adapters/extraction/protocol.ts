import type { ExtractedPage } from '../../core/domain/model.js';
import type { ExtractionScheduling } from './background-priority.js';
import type { DocumentKind } from './content-type.js';
import type { CleanupThresholds } from './cleanup-policy.js';
import type { ExtractionSettings } from './document-extractor.js';

/**
 * Messages between ChildProcessDocumentReader (the server process) and extraction-worker.ts (a forked child
 * process), over the child's IPC channel. Document bytes do not travel in messages: the parent writes them to a
 * private temporary file and sends its path, so neither side makes a serialized copy of a 40 MB document.
 */

/** Given to the child as its only command-line argument, as JSON. */
export interface WorkerStartData {
  settings: ExtractionSettings;
  /** When the child drops pdf.js's caches and collects garbage (see cleanupPolicy). */
  cleanup: CleanupThresholds;
  /** CPU niceness the child gives itself at start, before it starts any thread (0 keeps the parent's). */
  niceness: number;
  /** Whether the child also takes Linux's idle scheduling policy at start (see background-priority.ts). */
  scheduling: ExtractionScheduling;
  /** Test-only (see ChildProcessDocumentReaderOptions.crashOnMarkerForTests): crash hard on a document with this text. */
  crashOnMarker?: string;
}

/**
 * An attachment of the document (an e-mail's), written by the child to `file` beside the document's temporary file:
 * bytes do not travel in messages. The parent reads it and removes it.
 */
export interface AttachmentFile {
  filename: string;
  contentType: string;
  file: string;
}

/** Messages from the parent: a page range of a document to read, or the answer to an OCR request. */
export type WorkerCommand = ExtractionJob | OcrGrant;

/**
 * Pages firstPage..lastPage of a document (lastPage past the end means "to the end"); the child reports the whole
 * document's page count. A long PDF is read as several such jobs, by several children at once.
 */
export interface ExtractionJob {
  type: 'read';
  id: number;
  kind: DocumentKind;
  /** A temporary file holding the document; the parent deletes it once the whole document is answered. */
  file: string;
  firstPage: number;
  lastPage: number;
}

/** Whether the page the child asked about may be OCR'd: the parent keeps the document's OCR budget across ranges. */
export interface OcrGrant {
  type: 'ocr-grant';
  id: number;
  granted: boolean;
}

export type WorkerReply =
  /** Sent once the child listens for jobs: a job sent earlier could be lost while the child still loads. */
  | { type: 'ready' }
  /** The document is open: `pages` is its whole page count (not the range's); it sets the range's time budget. */
  | { id: number; type: 'started'; pages: number; rssMb: number }
  /** The next page needs OCR: may it (an OcrGrant answers)? */
  | { id: number; type: 'ocr-request' }
  /** Pages up to number `pagesDone` are finished, `pages` are those read since the last message; `rssMb` is the child's size now. */
  | { id: number; type: 'progress'; fraction: number; pagesDone: number; pages: ExtractedPage[]; rssMb: number }
  /** The range is read to its end: every page was sent with the progress messages before. */
  | { id: number; type: 'result'; rssMb: number; attachments?: AttachmentFile[] }
  /** Errors are sent as data: class identity does not survive serialization. */
  | { id: number; type: 'error'; unprocessable: boolean; message: string; stack?: string };
