import type { OcrImage } from './ocr-image.js';
import type { PageRaster } from './pdf-page-source.js';

/** The parts of PDFium's C API (see pdfium-page-source.ts) a render for OCR calls; pointers are numbers. */
export interface PdfiumRender {
  HEAPU8: Uint8Array;
  _FPDF_GetPageWidthF(page: number): number;
  _FPDF_GetPageHeightF(page: number): number;
  _FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  _FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): number;
  _FPDFBitmap_GetBuffer(bitmap: number): number;
  _FPDFBitmap_GetStride(bitmap: number): number;
  _FPDFBitmap_Destroy(bitmap: number): void;
  _FPDF_RenderPageBitmap(bitmap: number, page: number, x: number, y: number, width: number, height: number, rotate: number, flags: number): void;
}

/** Render flag: draw annotations (filled-in form fields, stamps) too. */
const FPDF_ANNOT = 0x01;

/**
 * Rows of the page rendered at once for OCR: at most this many bytes of bitmap. A whole 300-dpi letter page is a
 * 34 MB BGRx bitmap in WebAssembly memory, which grew PDFium's memory from 45 to 87 MB on the long real PDF's first
 * scanned page and, WebAssembly memory never shrinking, stayed so for the life of the process. In bands of 4 MB it
 * stays at 45 MB. Scanned pages come out pixel for pixel as from one whole-page bitmap; drawn vector lines may differ
 * by one grey level on a few pixels (PDFium's anti-aliasing per clip; pdf-page-sources test "renders for OCR in bands").
 */
export const RENDER_BAND_BYTES = 4 * 1024 * 1024;
/** Rows drawn beyond each band's edges and thrown away (see renderPage). */
const BAND_OVERLAP_ROWS = 16;

/**
 * Renders the page (rotation applied, annotations drawn) on white at `dpi`, never above `maxPixels`, to greyscale
 * (each pixel its darkest channel, see darkestChannelPgm), one band of rows after another.
 */
export function renderPage(m: PdfiumRender, page: number, dpi: number, maxPixels: number, bandBytes: number): OcrImage {
  const width = m._FPDF_GetPageWidthF(page); // points, rotation applied
  const height = m._FPDF_GetPageHeightF(page);
  const scale = Math.min(dpi / 72, Math.sqrt(maxPixels / (width * height)));
  const w = Math.max(1, Math.floor(width * scale));
  const h = Math.max(1, Math.floor(height * scale));
  const bandRows = Math.max(1, Math.min(h, Math.floor(bandBytes / (w * 4))));
  // Each band is drawn with BAND_OVERLAP_ROWS more rows above and below, which are thrown away: at a bitmap's edge
  // PDFium resamples images from the clipped part only, which changed the rows next to a seam.
  const margin = bandRows < h ? BAND_OVERLAP_ROWS : 0;
  const bitmapRows = bandRows + 2 * margin;
  const bitmap = m._FPDFBitmap_Create(w, bitmapRows, 0); // BGRx
  if (!bitmap) throw new Error(`PDFium could not allocate a ${w}x${bitmapRows} bitmap`);
  const header = new TextEncoder().encode(`P5\n${w} ${h}\n255\n`);
  const pgm = new Uint8Array(header.length + w * h);
  pgm.set(header);
  try {
    const stride = m._FPDFBitmap_GetStride(bitmap);
    for (let top = 0; top < h; top += bandRows) {
      m._FPDFBitmap_FillRect(bitmap, 0, 0, w, bitmapRows, 0xffffffff);
      // The whole page's size and position, shifted up: the bitmap holds rows top - margin..top + bandRows + margin.
      m._FPDF_RenderPageBitmap(bitmap, page, 0, margin - top, w, h, 0, FPDF_ANNOT);
      const pixels = m.HEAPU8; // read after the call: the memory may have grown (a new buffer) while rendering
      const buffer = m._FPDFBitmap_GetBuffer(bitmap);
      const rows = Math.min(bandRows, h - top);
      for (let row = 0; row < rows; row++) {
        let src = buffer + (margin + row) * stride;
        let dst = header.length + (top + row) * w;
        for (let x = 0; x < w; x++, src += 4, dst++) {
          const b = pixels[src], g = pixels[src + 1], r = pixels[src + 2];
          pgm[dst] = r < g ? (r < b ? r : b) : g < b ? g : b;
        }
      }
    }
  } finally {
    m._FPDFBitmap_Destroy(bitmap);
  }
  return { pgm, width: w, height: h };
}

/**
 * Renders the page (rotation applied, annotations drawn) on white in colour for a person to see, its longest side
 * `maxSide` pixels but at most `maxScale` pixels per point. One bitmap, not bands as for OCR: at most ~1600 px a side
 * (10 MB), drawn in the page-image process, which exits when idle.
 */
export function renderPageForViewing(m: PdfiumRender, page: number, maxSide: number, maxScale: number): PageRaster {
  const width = m._FPDF_GetPageWidthF(page); // points, rotation applied
  const height = m._FPDF_GetPageHeightF(page);
  const scale = Math.min(maxScale, maxSide / Math.max(width, height));
  // Rounded, not floored: 792 points at 1000/792 is 999.99… pixels.
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const bitmap = m._FPDFBitmap_Create(w, h, 0); // BGRx
  if (!bitmap) throw new Error(`PDFium could not allocate a ${w}x${h} bitmap`);
  try {
    m._FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xffffffff);
    m._FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, FPDF_ANNOT);
    const pixels = m.HEAPU8; // read after the call: the memory may have grown (a new buffer) while rendering
    const buffer = m._FPDFBitmap_GetBuffer(bitmap);
    const stride = m._FPDFBitmap_GetStride(bitmap);
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let row = 0, dst = 0; row < h; row++) {
      for (let src = buffer + row * stride, end = src + w * 4; src < end; src += 4, dst += 4) {
        rgba[dst] = pixels[src + 2];
        rgba[dst + 1] = pixels[src + 1];
        rgba[dst + 2] = pixels[src];
        rgba[dst + 3] = 255;
      }
    }
    return { rgba, width: w, height: h };
  } finally {
    m._FPDFBitmap_Destroy(bitmap);
  }
}
