import { wholeBytes } from './read-whole-file.js';
import type { PdfBytes, PdfPageSource, PdfPageSourceOptions, PdfReaderName } from './pdf-page-source.js';

/** Opens the PDF with the named reader. The libraries are loaded on first use, so a process loads only the one it uses. */
export async function openPdfPageSource(reader: PdfReaderName, pdf: PdfBytes, options: PdfPageSourceOptions): Promise<PdfPageSource> {
  if (reader === 'pdfium') return (await import('./pdfium-page-source.js')).openPdfiumPageSource(pdf, options);
  return (await import('./pdfjs-page-source.js')).openPdfjsPageSource(wholeBytes(pdf), options);
}
