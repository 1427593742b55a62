import type { PageArea } from '../../core/ports/page-renderer.js';
import type { DocumentKind } from './content-type.js';
import type { PdfReaderName } from './pdf-page-source.js';

/** Messages between ChildProcessPageRenderer and page-render-worker.ts. The document travels as a private temp file. */
export interface PageRenderJob {
  id: number;
  file: string;
  kind: DocumentKind;
  /** The library that draws a PDF page. */
  reader: PdfReaderName;
  page: number;
  /** Draw the page, its longest side `draw` pixels; or find the passage `find` on it. */
  task: { draw: number } | { find: string };
  /** The file stays for later jobs (the renderer keeps it under its content): a PDF may stay open in the child. */
  keep: boolean;
}

export type PageRenderReply =
  | { type: 'ready' }
  | { id: number; type: 'image'; bytes: Uint8Array; contentType: string }
  | { id: number; type: 'areas'; areas: PageArea[] }
  | { id: number; type: 'missing' }
  | { id: number; type: 'error'; unprocessable: boolean; message: string };
