import type { PageArea } from '../../core/ports/page-renderer.js';
import { area, findPassage, joinLineAreas, type LineArea } from './passage-match.js';

/** The parts of PDFium's C API (see pdfium-page-source.ts) finding a passage calls; pointers are numbers. */
export interface PdfiumFindText {
  HEAPU8: Uint8Array;
  _FPDF_GetPageWidthF(page: number): number;
  _FPDF_GetPageHeightF(page: number): number;
  _FPDFPage_GetRotation(page: number): number;
  _FPDFPage_SetRotation(page: number, rotation: number): void;
  _FPDFText_LoadPage(page: number): number;
  _FPDFText_ClosePage(textPage: number): void;
  _FPDFText_CountChars(textPage: number): number;
  _FPDFText_GetUnicode(textPage: number, index: number): number;
  _FPDFText_IsGenerated(textPage: number, index: number): number;
  _FPDFText_GetCharAngle(textPage: number, index: number): number;
  _FPDFText_CountRects(textPage: number, start: number, count: number): number;
  _FPDFText_GetRect(textPage: number, index: number, left: number, top: number, right: number, bottom: number): number;
  _FPDF_PageToDevice(page: number, startX: number, startY: number, sizeX: number, sizeY: number, rotate: number, pageX: number, pageY: number, deviceX: number, deviceY: number): number;
}

/** Device pixels per point in which areas are computed (FPDF_PageToDevice answers whole pixels): ~0.01 pt steps. */
const PRECISION = 100;

/**
 * Where `passage` is drawn on the loaded page: PDFium's rectangles of the characters found (one per line of each run,
 * in page space), turned into the page as shown (its /Rotate applied) and given as fractions of its width and height.
 * `scratch` is 48 bytes of WebAssembly memory for output parameters.
 */
export function findTextOnPage(m: PdfiumFindText, page: number, passage: string, scratch: number): PageArea[] {
  // As for the page's text (pdfium-text.ts), the characters are read with the page's turn taken off: in content order,
  // and in rectangles per line (with the turn, PDFium gave a rectangle per character). It is put back to place them.
  const turn = m._FPDFPage_GetRotation(page);
  if (turn !== 0) m._FPDFPage_SetRotation(page, 0);
  let found: { rects: number[][]; angle: number }[];
  try {
    found = runsOnPage(m, page, passage, scratch);
  } finally {
    if (turn !== 0) m._FPDFPage_SetRotation(page, turn);
  }
  const width = m._FPDF_GetPageWidthF(page); // points, as shown
  const height = m._FPDF_GetPageHeightF(page);
  const sizeX = Math.max(1, Math.round(width * PRECISION));
  const sizeY = Math.max(1, Math.round(height * PRECISION));
  const toDevice = (x: number, y: number): [number, number] => {
    m._FPDF_PageToDevice(page, 0, 0, sizeX, sizeY, 0, x, y, scratch + 32, scratch + 36);
    const [dx, dy] = new Int32Array(m.HEAPU8.buffer, scratch + 32, 2);
    return [dx / sizeX, dy / sizeY];
  };
  const areas: LineArea[] = [];
  for (const { rects, angle } of found) {
    // The way the run's line goes, as shown: a unit step along it (PDFium's angle is clockwise, y up), turned.
    const [x0, y0] = toDevice(0, 0);
    const [x1, y1] = toDevice(Math.cos(angle) * width, -Math.sin(angle) * width);
    const down = Math.abs((y1 - y0) * sizeY) > Math.abs((x1 - x0) * sizeX);
    for (const [left, top, right, bottom] of rects) {
      const [ax, ay] = toDevice(left, top);
      const [bx, by] = toDevice(right, bottom);
      const box = area(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
      if (box.width > 0 && box.height > 0) areas.push({ ...box, down });
    }
  }
  return joinLineAreas(areas);
}

/** Each run of the passage found on the page: its rectangles (left, top, right, bottom; page space) and its angle. */
function runsOnPage(m: PdfiumFindText, page: number, passage: string, scratch: number): { rects: number[][]; angle: number }[] {
  const textPage = m._FPDFText_LoadPage(page);
  if (!textPage) return [];
  try {
    const chars: string[] = [];
    const count = m._FPDFText_CountChars(textPage);
    for (let i = 0; i < count; i++) {
      const code = m._FPDFText_GetUnicode(textPage, i);
      chars.push(m._FPDFText_IsGenerated(textPage, i) === 1 || code > 0x10ffff ? '' : String.fromCodePoint(code));
    }
    return findPassage(chars, passage).map(({ start, end }) => {
      const rects: number[][] = [];
      const total = m._FPDFText_CountRects(textPage, start, end - start);
      for (let r = 0; r < total; r++) {
        if (m._FPDFText_GetRect(textPage, r, scratch, scratch + 8, scratch + 16, scratch + 24)) rects.push([...new Float64Array(m.HEAPU8.buffer, scratch, 4)]);
      }
      return { rects, angle: Math.max(0, m._FPDFText_GetCharAngle(textPage, start)) };
    });
  } finally {
    m._FPDFText_ClosePage(textPage);
  }
}
