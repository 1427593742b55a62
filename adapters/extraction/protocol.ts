import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentKind } from './content-type.js';
import type { ExtractionSettings } from './document-extractor.js';

/** Messages between WorkerThreadDocumentReader (main thread) and extraction-worker.ts. */

export interface WorkerStartData {
  settings: ExtractionSettings;
  /** Only when running from TypeScript: the .ts entry that extraction-worker-bootstrap.mjs imports. */
  entry?: string;
}

export interface ExtractionJob {
  id: number;
  kind: DocumentKind;
  /** Transferred, not copied: the reader hands over its own copy of the caller's bytes. */
  bytes: Uint8Array;
}

export type WorkerReply =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; pages: ExtractedPage[] }
  /** Errors are sent as data: class identity does not survive structured cloning. */
  | { id: number; type: 'error'; unprocessable: boolean; message: string; stack?: string };
