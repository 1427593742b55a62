import type { PdfPageSource, PdfPageSourceOptions, PdfReaderName } from './pdf-page-source.js';

/** Opens `bytes` with the named reader. The libraries are loaded on first use, so a process loads only the one it uses. */
export async function openPdfPageSource(reader: PdfReaderName, bytes: Uint8Array, options: PdfPageSourceOptions): Promise<PdfPageSource> {
  if (reader === 'pdfium') return (await import('./pdfium-page-source.js')).openPdfiumPageSource(bytes, options);
  return (await import('./pdfjs-page-source.js')).openPdfjsPageSource(bytes, options);
}
