import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../core/ports/document-reader.js';

/** A DocumentReader for core tests: pages decoded from the bytes as UTF-8, one page per form feed (\f). */
export class FakeDocumentReader implements DocumentReader {
  calls = 0;
  /** When set, read() throws it. */
  failWith: Error | null = null;
  /** Runs before answering: lets a test act while a job is "extracting". */
  beforeAnswer: (() => Promise<void>) | null = null;

  async read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    this.calls += 1;
    if (this.failWith) throw this.failWith;
    const pages = Buffer.from(request.bytes).toString('utf8').split('\f');
    request.onProgress?.(0.5);
    if (this.beforeAnswer) await this.beforeAnswer();
    request.onProgress?.(1);
    return pages.map((text, i) => ({ page: i + 1, text, method: 'text' as const }));
  }
}
