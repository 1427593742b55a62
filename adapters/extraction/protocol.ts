import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentKind } from './content-type.js';
import type { ExtractionSettings } from './document-extractor.js';

/**
 * Messages between ChildProcessDocumentReader (the server process) and extraction-worker.ts (a forked child
 * process). They travel over the child's IPC channel with 'advanced' serialization (the V8 serializer, like
 * structured clone), so document bytes are sent as a Uint8Array, not as JSON or base64.
 */

/** Given to the child as its only command-line argument, as JSON. */
export interface WorkerStartData {
  settings: ExtractionSettings;
  /** Only when running from TypeScript: the .ts entry that extraction-worker-bootstrap.mjs imports. */
  entry?: string;
  /** Test-only (see ChildProcessDocumentReaderOptions.crashOnMarkerForTests): crash hard on a document with this text. */
  crashOnMarker?: string;
}

export interface ExtractionJob {
  id: number;
  kind: DocumentKind;
  /** Serialized (copied) into the child; arrives there as a Uint8Array or a Buffer. */
  bytes: Uint8Array;
}

export type WorkerReply =
  /** Sent once the child listens for jobs: a job sent earlier could be lost while the child still loads. */
  | { type: 'ready' }
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; pages: ExtractedPage[] }
  /** Errors are sent as data: class identity does not survive serialization. */
  | { id: number; type: 'error'; unprocessable: boolean; message: string; stack?: string };
