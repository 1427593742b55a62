import type { DocumentKind } from './content-type.js';

/** Messages between ChildProcessPageRenderer and page-render-worker.ts. The document travels as a private temp file. */
export interface PageRenderJob {
  id: number;
  file: string;
  kind: DocumentKind;
  page: number;
  maxSide: number;
}

export type PageRenderReply =
  | { type: 'ready' }
  | { id: number; type: 'image'; bytes: Uint8Array; contentType: string }
  | { id: number; type: 'missing' }
  | { id: number; type: 'error'; unprocessable: boolean; message: string };
