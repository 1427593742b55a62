import path from 'node:path';
import { createRequire } from 'node:module';
import { PDFParse } from 'pdf-parse';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentKind } from './content-type.js';
import { readJpegHeader } from './jpeg-header.js';
import { countWordCharacters, markParagraphBreaks, normalizeExtractedText, removeRunningHeaders } from './normalize-text.js';
import { OcrEngine } from './ocr-engine.js';
import { decodeJpeg, decodeRenderedPng, toOcrImage } from './raster.js';

export interface ExtractionSettings {
  /** Resolution at which PDF pages without a text layer are rendered for OCR. */
  renderDpi: number;
  /** Upper bound for the pixels of an image given to OCR (rendered pages and photos are scaled down to it). */
  maxImagePixels: number;
  /** A PDF page whose text layer has fewer letters and digits than this is OCR'd (scans, scans with a stamp). */
  minTextCharsPerPage: number;
}

export const MESSAGES = {
  passwordProtected: 'The PDF is password-protected; upload a copy without a password',
  invalidPdf: 'The file is not a valid PDF (it is damaged or truncated)',
  invalidImage: 'The image could not be decoded (it is damaged or truncated)',
  noText: 'The document contains no readable text',
} as const;

/** Decoding needs several bytes per pixel at once; 50 MP covers full-resolution phone photos. */
const MAX_JPEG_PIXELS = 50_000_000;

/**
 * Turns a PDF or JPEG into per-page text. Runs inside an extraction child process: everything here is CPU-bound.
 * One instance per process, so the OCR engine is started once and reused across pages and documents.
 */
export class DocumentExtractor {
  private readonly ocr = new OcrEngine();

  constructor(private readonly settings: ExtractionSettings) {}

  async extract(bytes: Uint8Array, kind: DocumentKind, onProgress: (fraction: number) => void): Promise<ExtractedPage[]> {
    onProgress(0);
    const pages = kind === 'pdf' ? await this.readPdf(bytes, onProgress) : await this.readJpeg(bytes, onProgress);
    if (!pages.some((page) => countWordCharacters(page.text) > 0)) throw new UnprocessableDocumentError(MESSAGES.noText);
    return pages;
  }

  close(): Promise<void> {
    return this.ocr.terminate();
  }

  private async readPdf(bytes: Uint8Array, onProgress: (fraction: number) => void): Promise<ExtractedPage[]> {
    const parser = new PDFParse({ data: bytes, ...pdfjsAssets(), isEvalSupported: false });
    try {
      const pages: ExtractedPage[] = [];
      // Page by page (the document is parsed once and cached by the parser) so progress can be reported.
      for (let num = 1, total = 1; num <= total; num++) {
        const result = await parser.getText({ partial: [num] });
        total = result.total;
        if (total === 0) break;
        let text = markParagraphBreaks(normalizeExtractedText(result.pages[0]?.text ?? ''));
        let method: ExtractedPage['method'] = 'text';
        if (countWordCharacters(text) < this.settings.minTextCharsPerPage) {
          const ocrText = await this.ocrPdfPage(parser, num, (sub) => onProgress((num - 1 + sub) / total));
          // Keep the text layer when OCR finds less (a blank page with a page number, a non-Latin script).
          if (countWordCharacters(ocrText) >= countWordCharacters(text)) {
            text = ocrText;
            method = 'ocr';
          }
        }
        pages.push({ page: num, text, method });
        onProgress(num / total);
      }
      const cleaned = removeRunningHeaders(pages.map((p) => p.text));
      return pages.map((p, i) => ({ ...p, text: cleaned[i] }));
    } catch (error) {
      throw toPdfError(error);
    } finally {
      await parser.destroy().catch(() => {});
    }
  }

  private async ocrPdfPage(parser: PDFParse, num: number, onProgress: (fraction: number) => void): Promise<string> {
    const info = await parser.getInfo({ parsePageInfo: true, partial: [num] });
    const { width, height } = info.pages[0]; // in points (1/72 inch), rotation applied
    // Render at renderDpi, but never above maxImagePixels (posters and maps have huge pages).
    const scale = Math.min(this.settings.renderDpi / 72, Math.sqrt(this.settings.maxImagePixels / (width * height)));
    const shot = await parser.getScreenshot({ partial: [num], scale, imageDataUrl: false, imageBuffer: true });
    const image = toOcrImage(await decodeRenderedPng(shot.pages[0].data), 1, this.settings.maxImagePixels);
    return normalizeExtractedText(await this.ocr.recognize(image.pgm, 'auto', onProgress));
  }

  private async readJpeg(bytes: Uint8Array, onProgress: (fraction: number) => void): Promise<ExtractedPage[]> {
    const { width, height, orientation } = readJpegHeader(bytes);
    if (!width || !height) throw new UnprocessableDocumentError(MESSAGES.invalidImage);
    if (width * height > MAX_JPEG_PIXELS) {
      const megapixels = Math.round((width * height) / 1e6);
      throw new UnprocessableDocumentError(
        `The image is too large (${megapixels} megapixels); upload a photo of at most ${MAX_JPEG_PIXELS / 1e6} megapixels`,
      );
    }
    let image;
    try {
      image = toOcrImage(decodeJpeg(bytes), orientation, this.settings.maxImagePixels);
    } catch (error) {
      throw new UnprocessableDocumentError(MESSAGES.invalidImage, { cause: error });
    }
    // Photos are mostly single pages, receipts and forms: one block keeps "label ... amount" lines together.
    const text = normalizeExtractedText(await this.ocr.recognize(image.pgm, 'block', onProgress));
    return [{ page: 1, text, method: 'ocr' }];
  }
}

/** pdf.js errors that describe the document (names survive the library's re-wrapping), in words a user can act on. */
function toPdfError(error: unknown): unknown {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new UnprocessableDocumentError(MESSAGES.passwordProtected, { cause: error });
  }
  if (name === 'InvalidPDFException' || name === 'FormatError') {
    return new UnprocessableDocumentError(MESSAGES.invalidPdf, { cause: error });
  }
  return error;
}

let assets: { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string } | undefined;

/**
 * Local pdf.js resources: CMaps (text of CJK fonts), the 14 standard fonts (rendering PDFs that do not embed them)
 * and the wasm decoders (JPEG 2000 scans). In Node pdf.js reads these paths from disk; without them it would
 * silently lose that text or those images. Resolved from pdf-parse so we get the pdfjs-dist it was built with.
 */
function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string } {
  if (!assets) {
    const requireFromPdfParse = createRequire(createRequire(import.meta.url).resolve('pdf-parse'));
    const root = path.dirname(requireFromPdfParse.resolve('pdfjs-dist/package.json'));
    // pdf.js insists on a trailing slash.
    assets = {
      cMapUrl: path.join(root, 'cmaps') + '/',
      standardFontDataUrl: path.join(root, 'standard_fonts') + '/',
      wasmUrl: path.join(root, 'wasm') + '/',
    };
  }
  return assets;
}
