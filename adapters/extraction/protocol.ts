import type { ExtractedPage } from '../../core/domain/model.js';
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
  /** Test-only (see ChildProcessDocumentReaderOptions.crashOnMarkerForTests): crash hard on a document with this text. */
  crashOnMarker?: string;
}

export interface ExtractionJob {
  id: number;
  kind: DocumentKind;
  /** A temporary file holding the document; the parent deletes it once the job is answered. */
  file: string;
}

export type WorkerReply =
  /** Sent once the child listens for jobs: a job sent earlier could be lost while the child still loads. */
  | { type: 'ready' }
  /** The document is open: its page count sets its time budget. */
  | { id: number; type: 'started'; pages: number; rssMb: number }
  /** `pagesDone` pages are finished, `pages` are those read since the last message; `rssMb` is the child's size now. */
  | { id: number; type: 'progress'; fraction: number; pagesDone: number; pages: ExtractedPage[]; rssMb: number }
  /** The document is read to its end: every page was sent with the progress messages before. */
  | { id: number; type: 'result'; rssMb: number }
  /** Errors are sent as data: class identity does not survive serialization. */
  | { id: number; type: 'error'; unprocessable: boolean; message: string; stack?: string };
