import type { StoredDocument } from './document-reader.js';

export interface PageImageRequest {
  /** Read when the page is drawn: requests waiting their turn hold no copy of a long document. */
  document: StoredDocument;
  /**
   * Names the document's bytes (their SHA-256, say): requests naming the same content are the same bytes, so a renderer
   * may keep one copy of them for the next page asked for. Without it every request reads the document anew.
   */
  contentKey?: string;
  /** Its declared type: application/pdf, image/jpeg or image/jpg. */
  contentType: string;
  /** 1-based page; an image is its own page 1. */
  page: number;
  /** The image's longest side is at most this many pixels. */
  maxSide: number;
  /** Who asks (a user id): a renderer that queues requests may take the people asking in turns. */
  requestedBy?: string;
}

/** A passage to find on a page (the excerpt a source quotes) and where to find it. */
export interface PageTextRequest extends Omit<PageImageRequest, 'maxSide'> {
  text: string;
}

/** A rectangle on the page as drawn (its image), in fractions of the page's width and height from its top left. */
export interface PageArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageImage {
  bytes: Uint8Array;
  /** image/png for a rendered PDF page, image/jpeg for a photographed page. */
  contentType: string;
}

/**
 * Draws one page of a stored document as an image, off the caller's event loop and bounded in time and memory.
 * null when the document has no such page; throws UnprocessableDocumentError when the document cannot be read.
 */
export interface PageRenderer {
  render(request: PageImageRequest): Promise<PageImage | null>;
  /**
   * Where the passage is drawn on the page, as areas of its image (a line each, in page order), whether the page has a
   * text layer or was read by OCR (a scan, a photo): [] when it is not found there; null when the document has no such
   * page. Throws as render does.
   */
  findText(request: PageTextRequest): Promise<PageArea[] | null>;
}
