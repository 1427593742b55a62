import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { PDF_MESSAGES, type PdfBytes, type PdfPageSource, type PdfPageSourceOptions } from './pdf-page-source.js';
import { pdfiumFiles, withGrowableTable, type PdfiumFile, type PdfiumFileModule } from './pdfium-file-access.js';
import { layOutPageText, type PageChar } from './pdfium-text.js';
import { findTextOnPage, type PdfiumFindText } from './pdfium-find-text.js';
import { RENDER_BAND_BYTES, renderPage, renderPageForViewing, type PdfiumRender } from './pdfium-render.js';

/**
 * The parts of PDFium's C API (compiled to WebAssembly by @hyzyla/pdfium) this reader calls, the render's
 * (pdfium-render.ts) and the text finder's (pdfium-find-text.ts) among them; pointers are numbers.
 */
interface Pdfium extends PdfiumRender, PdfiumFindText, PdfiumFileModule {
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  _FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  _FPDF_GetLastError(): number;
  _FPDF_CloseDocument(doc: number): void;
  _FPDF_GetPageCount(doc: number): number;
  _FPDF_LoadPage(doc: number, index: number): number;
  _FPDF_ClosePage(page: number): void;
  _FPDF_GetPageBoundingBox(page: number, rect: number): number;
  _FPDFPage_CountObjects(page: number): number;
  _FPDFPage_GetObject(page: number, index: number): number;
  _FPDFPageObj_GetType(object: number): number;
  _FPDFImageObj_GetImagePixelSize(image: number, width: number, height: number): number;
  _FPDFPageObj_SetIsActive(object: number, active: number): number;
  _FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  _FPDFFormObj_CountObjects(form: number): number;
  _FPDFFormObj_GetObject(form: number, index: number): number;
  _FPDFText_IsHyphen(textPage: number, index: number): number;
  _FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  _FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
}

const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;
const OBJ_TEXT = 1, OBJ_PATH = 2, OBJ_IMAGE = 3, OBJ_SHADING = 4, OBJ_FORM = 5;
/** Form XObjects nest; deeper than this counts as drawn (a render then decides). */
const MAX_FORM_DEPTH = 8;

let library: Promise<{ m: Pdfium; openFile: ReturnType<typeof pdfiumFiles> }> | undefined;

/** PDFium is started once per process, from the wasm file installed with the package (never fetched). */
function pdfium(): NonNullable<typeof library> {
  library ??= (async () => {
    const file = path.join(path.dirname(createRequire(import.meta.url).resolve('@hyzyla/pdfium')), 'pdfium.wasm');
    const wasm = withGrowableTable(fs.readFileSync(file)); // room for the file-reading callback (pdfium-file-access.ts)
    const lib = await PDFiumLibrary.init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
    // The wrapper's page API has no character positions or crop box: the module under it has PDFium's whole C API.
    const module = (lib as unknown as { module: Pdfium & Record<string, unknown> }).module;
    // Its _FPDF… functions are checking wrappers (assertions, argument arrays): a fifth of the time of reading text,
    // called six times per character. The wasm exports themselves are called instead; HEAPU8 & co. are read through.
    const direct: Record<string, unknown> = Object.create(module);
    const exports = module.wasmExports as unknown as Record<string, unknown>;
    for (const name of Object.keys(module)) {
      if (name.startsWith('_FPDF') && typeof exports[name.slice(1)] === 'function') direct[name] = exports[name.slice(1)];
    }
    const m = direct as unknown as Pdfium;
    return { m, openFile: pdfiumFiles(m) };
  })();
  return library;
}

/** Where PDFium reads a document from: a copy in its memory (bytes given), or the file itself (a path given). */
function documentInput(m: Pdfium, openFile: (file: string) => PdfiumFile, source: PdfBytes): { load(): number; release(): void } {
  if (!(source instanceof Uint8Array)) {
    const file = openFile(source.file);
    return { load: () => m._FPDF_LoadCustomDocument(file.access, 0), release: () => file.close() };
  }
  // Only the size is kept: no closure below may name `source`, so the caller's copy of the file can be collected
  // once it is in WebAssembly memory instead of living as long as the document is open.
  const size = source.length;
  const data = m.wasmExports.malloc(Math.max(1, size));
  if (!data) throw new Error(`PDFium could not allocate ${size} bytes for the document`);
  m.HEAPU8.set(source, data);
  return { load: () => m._FPDF_LoadMemDocument(data, size, 0), release: () => m.wasmExports.free(data) };
}

/**
 * PDF pages read by PDFium: text from its characters (pdfium-text.ts lays them out as pdf.js's text path does),
 * page objects for "is anything drawn", and its own renderer for OCR. Everything the document holds in WebAssembly
 * memory (the file's copy, parsed objects) is freed by close(); that memory is reused by the next document, never
 * returned to the system (WebAssembly memory does not shrink).
 */
export async function openPdfiumPageSource(
  source: PdfBytes,
  { maxPdfImagePixels, renderBandBytes = RENDER_BAND_BYTES }: PdfPageSourceOptions & { renderBandBytes?: number },
): Promise<PdfPageSource> {
  const { m, openFile } = await pdfium();
  const input = documentInput(m, openFile, source);
  let doc = input.load();
  if (!doc) {
    const code = m._FPDF_GetLastError();
    input.release();
    const password = code === FPDF_ERR_PASSWORD || code === FPDF_ERR_SECURITY;
    throw new UnprocessableDocumentError(password ? PDF_MESSAGES.passwordProtected : PDF_MESSAGES.invalidPdf, { cause: new Error(`PDFium error ${code}`) });
  }
  let closed = false;
  const pageCount = m._FPDF_GetPageCount(doc);
  const scratch = m.wasmExports.malloc(64); // room for four doubles of output parameters

  const withPage = <T>(num: number, use: (page: number) => T): T => {
    if (closed) throw new Error('The PDF is closed');
    if (!Number.isInteger(num) || num < 1 || num > pageCount) throw new RangeError(`No page ${num} in a PDF of ${pageCount} pages`);
    try {
      const page = m._FPDF_LoadPage(doc, num - 1);
      if (!page) throw new UnprocessableDocumentError(PDF_MESSAGES.invalidPdf, { cause: new Error(`PDFium could not load page ${num}`) });
      try {
        return use(page);
      } finally {
        m._FPDF_ClosePage(page);
      }
    } catch (error) {
      // PDFium aborted (out of memory, a failed check): this instance is unusable; the next document gets a new one.
      if (error instanceof Error && error.name === 'RuntimeError') {
        library = undefined;
        closed = true;
      }
      throw error;
    }
  };

  // As pdf.js's maxImageSize: an image with more pixels is left out of a render rather than decoded.
  const leaveOutAllLargeImages = (page: number) => {
    const count = m._FPDFPage_CountObjects(page);
    for (let i = 0; i < count; i++) leaveOutLargeImages(m, m._FPDFPage_GetObject(page, i), maxPdfImagePixels, scratch, 0);
  };

  return {
    pageCount,
    text: async (num) => withPage(num, (page) => pageText(m, page, scratch)),
    hasInk: async (num) => withPage(num, (page) => {
      const count = m._FPDFPage_CountObjects(page);
      for (let i = 0; i < count; i++) if (isInk(m, m._FPDFPage_GetObject(page, i), maxPdfImagePixels, scratch, 0)) return true;
      return false;
    }),
    renderForOcr: async (num, dpi, maxPixels) => withPage(num, (page) => {
      leaveOutAllLargeImages(page);
      return renderPage(m, page, dpi, maxPixels, renderBandBytes);
    }),
    renderForViewing: async (num, maxSide, maxScale) => withPage(num, (page) => {
      leaveOutAllLargeImages(page);
      return renderPageForViewing(m, page, maxSide, maxScale);
    }),
    findText: async (num, passage) => withPage(num, (page) => findTextOnPage(m, page, passage, scratch)),
    // PDFium keeps what it parsed for the document (fonts, shared resources) until the document is closed, and has no
    // call to drop it: the document is closed and opened again from the same bytes (a few milliseconds).
    dropCaches: async () => {
      if (closed) return;
      m._FPDF_CloseDocument(doc);
      doc = input.load();
      if (!doc) {
        closed = true;
        input.release();
        m.wasmExports.free(scratch);
        throw new Error(`PDFium could not open the document again (error ${m._FPDF_GetLastError()})`);
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      m._FPDF_CloseDocument(doc);
      input.release();
      m.wasmExports.free(scratch);
    },
  };
}

/**
 * Whether a page object paints something: glyphs, an image (not one over `maxImagePixels`, which is never drawn, as
 * with pdf.js), a shading, a filled or stroked path.
 */
function isInk(m: Pdfium, object: number, maxImagePixels: number, scratch: number, depth: number): boolean {
  switch (m._FPDFPageObj_GetType(object)) {
    case OBJ_TEXT:
    case OBJ_SHADING:
      return true;
    case OBJ_IMAGE:
      return !isLargeImage(m, object, maxImagePixels, scratch);
    case OBJ_PATH: {
      // A path that is neither filled nor stroked only clips (pdf.js's endPath).
      if (!m._FPDFPath_GetDrawMode(object, scratch, scratch + 4)) return true;
      const view = new Int32Array(m.HEAPU8.buffer, scratch, 2);
      return view[0] !== 0 || view[1] !== 0;
    }
    case OBJ_FORM: {
      if (depth >= MAX_FORM_DEPTH) return true;
      const count = m._FPDFFormObj_CountObjects(object);
      for (let i = 0; i < count; i++) if (isInk(m, m._FPDFFormObj_GetObject(object, i), maxImagePixels, scratch, depth + 1)) return true;
      return false;
    }
    default:
      return false;
  }
}

function isLargeImage(m: Pdfium, image: number, maxPixels: number, scratch: number): boolean {
  if (!m._FPDFImageObj_GetImagePixelSize(image, scratch, scratch + 4)) return false;
  const [width, height] = new Uint32Array(m.HEAPU8.buffer, scratch, 2);
  return width * height > maxPixels;
}

/** Turns off (on the loaded page only; the document is never saved) images with more than `maxPixels` pixels. */
function leaveOutLargeImages(m: Pdfium, object: number, maxPixels: number, scratch: number, depth: number): void {
  const type = m._FPDFPageObj_GetType(object);
  if (type === OBJ_IMAGE) {
    if (isLargeImage(m, object, maxPixels, scratch)) m._FPDFPageObj_SetIsActive(object, 0);
  } else if (type === OBJ_FORM && depth < MAX_FORM_DEPTH) {
    const count = m._FPDFFormObj_CountObjects(object);
    for (let i = 0; i < count; i++) leaveOutLargeImages(m, m._FPDFFormObj_GetObject(object, i), maxPixels, scratch, depth + 1);
  }
}

/** Printer's marks sit well outside the crop box; glyphs on its edge (rounding) are kept. */
const CROP_TOLERANCE = 1;

/**
 * The page's characters, each in the frame of its own writing direction, laid out in lines. Characters whose origin
 * lies outside the crop box (printer's marks, trimmed text) are left out: they are not on the page a reader sees.
 */
function pageText(m: Pdfium, page: number, scratch: number): string {
  let visible = { left: -Infinity, bottom: -Infinity, right: Infinity, top: Infinity };
  if (m._FPDF_GetPageBoundingBox(page, scratch)) {
    const [left, top, right, bottom] = new Float32Array(m.HEAPU8.buffer, scratch, 4); // FS_RECTF, page space
    visible = { left: left - CROP_TOLERANCE, bottom: bottom - CROP_TOLERANCE, right: right + CROP_TOLERANCE, top: top + CROP_TOLERANCE };
  }
  // PDFium orders the characters of a turned page (/Rotate) as they appear on screen: on a page turned by 180° every
  // word comes out backwards. Positions and angles here are in page space, so the text is read unturned; the turn is
  // put back at once (the document is never saved, and renders need it).
  const turn = m._FPDFPage_GetRotation(page);
  if (turn !== 0) m._FPDFPage_SetRotation(page, 0);
  const textPage = m._FPDFText_LoadPage(page);
  if (turn !== 0) m._FPDFPage_SetRotation(page, turn);
  if (!textPage) return '';
  try {
    const count = m._FPDFText_CountChars(textPage);
    const chars: PageChar[] = [];
    let f64 = new Float64Array(m.HEAPU8.buffer);
    let f32 = new Float32Array(m.HEAPU8.buffer);
    for (let i = 0; i < count; i++) {
      // A hyphen that ended a line can come with any code (broken font encodings give U+0002): PDFium knows it is one.
      const code = m._FPDFText_IsHyphen(textPage, i) === 1 ? 0xfffe : m._FPDFText_GetUnicode(textPage, i);
      if (m._FPDFText_IsGenerated(textPage, i) === 1) {
        chars.push({ code, generated: true, x: 0, y: 0, left: 0, right: 0, size: 0, angle: 0 });
        continue;
      }
      m._FPDFText_GetCharOrigin(textPage, i, scratch, scratch + 8);
      // The loose box spans the font's ascent to descent, scaled as drawn: its height is the size the glyph is shown
      // at (FPDFText_GetFontSize gives the size before the text matrix, often 1).
      m._FPDFText_GetLooseCharBox(textPage, i, scratch + 16);
      // New views only when the wasm memory grew during a call (its buffer is then replaced).
      if (f64.buffer !== m.HEAPU8.buffer) {
        f64 = new Float64Array(m.HEAPU8.buffer);
        f32 = new Float32Array(m.HEAPU8.buffer);
      }
      const px = f64[scratch >> 3];
      const py = f64[(scratch >> 3) + 1];
      if (px < visible.left || px > visible.right || py < visible.bottom || py > visible.top) continue;
      const box = (scratch + 16) >> 2; // FS_RECTF: left, top, right, bottom
      const left = f32[box], top = f32[box + 1], right = f32[box + 2], bottom = f32[box + 3];
      // PDFium measures the angle clockwise (text running up the page is 3π/2); -1 when unknown.
      const angle = Math.max(0, m._FPDFText_GetCharAngle(textPage, i));
      if (angle === 0) {
        chars.push({ code, generated: false, x: px, y: py, left, right, size: top - bottom, angle });
        continue;
      }
      const cos = Math.cos(-angle);
      const sin = Math.sin(-angle);
      // Along the writing direction and across it; the box's extent along and across is that of its four corners.
      const alongX = (left + right) / 2 * cos + (top + bottom) / 2 * sin;
      const halfAlong = (Math.abs((right - left) * cos) + Math.abs((top - bottom) * sin)) / 2;
      const halfAcross = (Math.abs((right - left) * sin) + Math.abs((top - bottom) * cos)) / 2;
      chars.push({
        code, generated: false, x: px * cos + py * sin, y: py * cos - px * sin,
        left: alongX - halfAlong, right: alongX + halfAlong, size: 2 * halfAcross, angle,
      });
    }
    return layOutPageText(chars);
  } finally {
    m._FPDFText_ClosePage(textPage);
  }
}

/** Bytes of WebAssembly memory PDFium holds in this process (0 before its first document): it grows, never shrinks. */
export async function pdfiumMemoryBytes(): Promise<number> {
  return library ? (await library).m.HEAPU8.buffer.byteLength : 0;
}
