import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { REPO_ROOT } from './paths.js';

/**
 * Documents made by the tests themselves, so the default suites need nothing beside the repository: text PDFs,
 * scanned pages (text rendered to pixels, embedded as the page's only content), photos with EXIF orientations, and
 * broken PDFs. The font is the Liberation Sans that pdfjs-dist ships, so rendering does not depend on system fonts.
 */
export const FONT_FAMILY = 'Generated Fixture Sans';
GlobalFonts.registerFromPath(
  createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'),
  FONT_FAMILY,
);

export interface TextImageOptions {
  width?: number;
  height?: number;
  fontSize?: number;
  /** Upper-left corner of the first line. */
  margin?: number;
}

/** Black lines of text on white, drawn like a clean scan or a photo of a printed page. */
function drawText(lines: string[], options: TextImageOptions) {
  const { width = 1275, height = 1650, fontSize = 40, margin = 100 } = options;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = `${fontSize}px "${FONT_FAMILY}"`;
  ctx.textBaseline = 'top';
  lines.forEach((line, i) => ctx.fillText(line, margin, margin + i * fontSize * 1.5));
  return canvas;
}

/** A JPEG photo of lines of text (no EXIF: stored upright). */
export function textJpeg(lines: string[], options: TextImageOptions = {}): Uint8Array {
  return drawText(lines, options).toBuffer('image/jpeg', 90);
}

/** A PNG of lines of text. */
export function textPng(lines: string[], options: TextImageOptions = {}): Uint8Array {
  return drawText(lines, options).toBuffer('image/png');
}

export function textWebp(lines: string[], options: TextImageOptions = {}): Uint8Array {
  return drawText(lines, options).toBuffer('image/webp', 90);
}

/**
 * A JPEG whose pixels are stored turned a quarter to the left, as a camera held sideways stores them, with no EXIF
 * yet: with EXIF orientation 6 (see withExifOrientation) a viewer shows the upright text. Width and height are those
 * of the upright picture.
 */
export function sidewaysTextJpeg(lines: string[], options: TextImageOptions = {}): Uint8Array {
  return sidewaysText(lines, options, 'image/jpeg');
}

/** The same as a PNG or WebP (orientation written by withPngOrientation, withWebpOrientation). */
export function sidewaysText(lines: string[], options: TextImageOptions, format: 'image/jpeg' | 'image/png' | 'image/webp'): Uint8Array {
  const upright = drawText(lines, options);
  const turned = createCanvas(upright.height, upright.width);
  const ctx = turned.getContext('2d');
  ctx.translate(0, upright.width);
  ctx.rotate(-Math.PI / 2);
  ctx.drawImage(upright, 0, 0);
  return format === 'image/png' ? turned.toBuffer('image/png') : turned.toBuffer(format, 90);
}

/**
 * A scanned document: each page (US letter) holds only a picture of its lines, no text layer, so extraction must OCR
 * it. Pictures are 150 dpi PNGs.
 */
export async function scannedPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const lines of pages) {
    const image = await doc.embedPng(textPng(lines));
    doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  }
  return doc.save();
}

/**
 * A PDF with a text layer: one page per entry, each line of the entry drawn in Helvetica; the pages numbered in
 * `scanned` (1-based) are pictures of their lines instead, as in scannedPdf (read by OCR: seconds each).
 */
export async function pagedTextPdf(pages: string[][], scanned: readonly number[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, lines] of pages.entries()) {
    const page = doc.addPage([612, 792]);
    if (scanned.includes(i + 1)) page.drawImage(await doc.embedPng(textPng(lines)), { x: 0, y: 0, width: 612, height: 792 });
    else lines.forEach((line, n) => page.drawText(line, { x: 60, y: 720 - n * 16, size: 11, font }));
  }
  return doc.save();
}

/** A valid PDF cut short (half its bytes): no cross-reference table, no trailer. */
export async function truncatedPdf(): Promise<Uint8Array> {
  const pages = Array.from({ length: 6 }, (_, i) => [`Page ${i + 1} of a document that never arrived whole.`]);
  const bytes = await pagedTextPdf(pages);
  return bytes.slice(0, Math.floor(bytes.length / 2));
}

/** A file that starts like a PDF and is none. */
export const MALFORMED_PDF = new TextEncoder().encode('%PDF-1.3\nThis is not a valid PDF file\n%%EOF\n');

/** Fixtures made once for the project (see test/fixtures/README.md). */
export function readFixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', name)));
}
