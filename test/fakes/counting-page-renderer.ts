import type { PageArea, PageImageRequest, PageRenderer, PageTextRequest } from '../../core/ports/page-renderer.js';
import { documentBytes } from './fake-document-reader.js';

/**
 * A PageRenderer over FakeDocumentReader's documents (pages of text split by form feeds) that records what it was
 * asked: an image is its request as JSON, and a passage is found in the page's text (case aside), its area spanning
 * the page's width by the passage's place in the text. Reads the document as a real one does.
 */
export class CountingPageRenderer implements PageRenderer {
  readonly requests: Omit<PageImageRequest, 'document'>[] = [];
  readonly searches: Omit<PageTextRequest, 'document'>[] = [];
  /** Bytes of each document read, in request order. */
  readonly documentSizes: number[] = [];
  failWith: Error | null = null;

  async render({ document, ...request }: PageImageRequest) {
    this.requests.push(request);
    const pages = await this.pages(document);
    if (request.page > pages.length) return null;
    const { contentKey, requestedBy, ...drawn } = request; // the image shows what was drawn, not the content's name or who asked
    return { bytes: new TextEncoder().encode(JSON.stringify(drawn)), contentType: 'image/png' };
  }

  async findText({ document, ...request }: PageTextRequest): Promise<PageArea[] | null> {
    this.searches.push(request);
    const pages = await this.pages(document);
    const text = pages[request.page - 1]?.toLowerCase();
    if (text === undefined) return null;
    const at = text.indexOf(request.text.toLowerCase());
    if (at < 0) return [];
    return [{ x: 0, y: at / text.length, width: 1, height: request.text.length / text.length }];
  }

  private async pages(document: PageImageRequest['document']): Promise<string[]> {
    const bytes = await documentBytes(document);
    this.documentSizes.push(bytes.length);
    if (this.failWith) throw this.failWith;
    return new TextDecoder().decode(bytes).split('\f');
  }
}
