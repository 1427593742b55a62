import { ReadCancelledError, UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentAttachment, DocumentReader, ReadDocumentRequest, StoredDocument } from '../../core/ports/document-reader.js';

const JPEG_MAGIC = [0xff, 0xd8, 0xff];

/**
 * A DocumentReader for core tests. A "PDF" is UTF-8 text, one page per form feed (\f). A "JPEG" is the JPEG magic
 * bytes followed by UTF-8 text, read as one page (see FakeDocumentReader.jpeg). Like a real reader it refuses empty
 * bytes, other declared types, and content whose magic bytes contradict the declared type, and stops with
 * ReadCancelledError when its signal is aborted (before it starts, or while it works: progress 0.5, beforeAnswer).
 */
export class FakeDocumentReader implements DocumentReader {
  calls = 0;
  /** When set, read() throws it. */
  failWith: Error | null = null;
  /** Runs before answering: lets a test act while a job is "extracting". */
  beforeAnswer: (() => Promise<void>) | null = null;
  /** The first page each read() was asked for (ReadDocumentRequest.firstPage), in call order. */
  firstPages: number[] = [];
  /** The attachments a document of this text has (an e-mail's), told through onAttachments on every read of it. */
  attachmentsOf: ((text: string) => DocumentAttachment[]) | null = null;

  /** A "PDF" page that is exactly this text stands for a scanned page the OCR page limit skipped ('ocr-skipped'). */
  static readonly OCR_SKIPPED_PAGE = '<ocr-skipped>';

  /** Bytes this reader takes as a photographed page showing `text`. */
  static jpeg(text: string): Uint8Array {
    return Buffer.concat([Buffer.from(JPEG_MAGIC), Buffer.from(text, 'utf8')]);
  }

  async read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    this.calls += 1;
    const stopIfAborted = () => {
      if (request.signal?.aborted) throw new ReadCancelledError();
    };
    stopIfAborted();
    if (this.failWith) throw this.failWith;
    const declared = request.contentType.split(';')[0].trim().toLowerCase();
    if (declared !== 'application/pdf' && declared !== 'image/jpeg' && declared !== 'image/jpg') {
      throw new UnprocessableDocumentError(`Unsupported file type "${declared}"; upload a PDF or a JPEG image`);
    }
    const bytes = await documentBytes(request.document);
    if (bytes.length === 0) throw new UnprocessableDocumentError('The file is empty; upload the document again');
    const isJpeg = JPEG_MAGIC.every((b, i) => bytes[i] === b);
    if (declared === 'application/pdf' && isJpeg) {
      throw new UnprocessableDocumentError(`The file content is not a PDF although it was declared as ${declared}`);
    }
    if (declared !== 'application/pdf' && !isJpeg) {
      throw new UnprocessableDocumentError(`The file content is not a JPEG image although it was declared as ${declared}`);
    }
    const text = Buffer.from(bytes.subarray(isJpeg ? JPEG_MAGIC.length : 0)).toString('utf8');
    const firstPage = request.firstPage ?? 1;
    this.firstPages.push(firstPage);
    const pages: ExtractedPage[] = (isJpeg
      ? [{ page: 1, text, method: 'ocr' } as ExtractedPage]
      : text.split('\f').map((page, i): ExtractedPage =>
          page === FakeDocumentReader.OCR_SKIPPED_PAGE ? { page: i + 1, text: '', method: 'ocr-skipped' } : { page: i + 1, text: page, method: 'text' },
        )).filter((page) => page.page >= firstPage);
    // Like a real reader, the first half of the pages is handed over while the rest is still "being read".
    request.onPageCount?.(isJpeg ? 1 : text.split('\f').length);
    const attachments = this.attachmentsOf?.(text) ?? [];
    if (attachments.length > 0) request.onAttachments?.(attachments);
    const half = Math.ceil(pages.length / 2);
    // A photo is read by OCR; the fake's PDF pages have a text layer.
    if (pages.length > 0) request.onReading?.(firstPage, isJpeg);
    request.onPages?.(pages.slice(0, half));
    if (pages.length > half) request.onReading?.(pages[half]!.page, isJpeg);
    request.onProgress?.(0.5);
    stopIfAborted();
    if (this.beforeAnswer) await this.beforeAnswer();
    stopIfAborted();
    if (pages.length > half) request.onPages?.(pages.slice(half));
    request.onProgress?.(1);
    stopIfAborted();
    return pages;
  }
}

/** The whole document, whether it came as bytes or as a stream of pieces. */
export async function documentBytes(document: StoredDocument): Promise<Uint8Array> {
  if (typeof document !== 'function') return document;
  const pieces: Uint8Array[] = [];
  for await (const piece of document()) pieces.push(piece);
  return Buffer.concat(pieces);
}
