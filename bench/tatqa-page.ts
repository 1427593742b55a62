/**
 * A TAT-QA context printed as a company prints a page of its annual report: a title line, the paragraphs as prose, and
 * the table as a printed table: row labels left, figures right-aligned in their columns, the header rows (the periods)
 * in bold above them, no grid. The table goes after the paragraph that announces it ("the table below", "as follows:"),
 * else after the paragraphs. Long tables break over pages with their header rows repeated, as printed reports do.
 * Real text in Helvetica (a standard font): what cannot be encoded in WinAnsi is mapped by make-pdf.ts toWinAnsi.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { toWinAnsi } from '../test/support/make-pdf.js';
import { REPO_ROOT } from '../test/support/paths.js';
import type { ApiClient } from '../test/support/api-client.js';
import type { TatqaContext } from './tatqa-data.js';

const [WIDTH, HEIGHT, MARGIN] = [612, 792, 56];
const TEXT = { size: 10, leading: 13 };
const GAP = 12; // between table columns
const MIN_LABEL_WIDTH = 150;
/**
 * A figure column's least width, in ems of the type. A harness may narrow it to print the same tables with headings
 * that wrap more (a check of the table-heading geometry on the dev part's tables); the benches keep it.
 */
export const FIGURE_COLUMN = { minWidthEm: 5.3 };

export const TATQA_PAGE_TITLE = 'Annual Report';

/**
 * A cell or paragraph as the page prints it, before toWinAnsi: whitespace collapsed, ligatures ("ﬂ") as letters, and
 * the dashes WinAnsi lacks (toWinAnsi would drop them: "−1" would lose its sign) as the ones it has.
 */
export function forPrint(text: string): string {
  return text.replace(/[\ufb00-\ufb06]/g, (ligature) => ligature.normalize('NFKD')).replace(/[\u2212\u2010\u2011]/g, '-').replace(/\u2015/g, '\u2014').replace(/\s+/g, ' ').trim();
}

/** Figures and their placeholders ("$ 1,452.4", "(12.6)", "12%", "—"): right-aligned, and they end the header rows. */
export function isFigureCell(cell: string): boolean {
  return /^[\s$€£¥(+\-–—]*\d[\d,. ]*\)?\s*%?\)?$/.test(cell.trim()) || /^[-–—]+$/.test(cell.trim());
}

/**
 * The header rows: the rows up to the first one with a figure after its label, or with a label alone (a section
 * heading such as "Assets"). A row of years ("2019", "2018") is still a header: its figures are all years.
 */
export function headerRowCount(table: string[][]): number {
  const isYear = (cell: string) => /^(19|20)\d\d$/.test(cell.trim());
  const isHeader = (row: string[]) => row.slice(1).some((cell) => cell.trim() !== '') && !row.slice(1).some((cell) => isFigureCell(cell) && !isYear(cell));
  const body = table.findIndex((row) => !isHeader(row));
  return body < 0 ? Math.min(1, table.length) : Math.max(body, table.length > 1 ? 0 : 1);
}

export async function tatqaPagePdf(context: TatqaContext): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const writer = new PageWriter(doc, fonts);
  writer.title(TATQA_PAGE_TITLE);
  const paragraphs = [...context.paragraphs].sort((a, b) => a.order - b.order).map((p) => p.text);
  const announcing = paragraphs.findIndex((p) => /\b(table below|following table|tables below|as follows|below (?:table|sets|shows|presents|summari[sz]es))\b|:\s*$/i.test(p));
  const tableAfter = announcing >= 0 ? announcing : paragraphs.length - 1;
  if (tableAfter < 0) writer.table(context.table.table);
  paragraphs.forEach((text, i) => {
    writer.paragraph(text);
    if (i === tableAfter) writer.table(context.table.table);
  });
  return doc.save();
}

class PageWriter {
  private page: PDFPage;
  private y = HEIGHT - MARGIN;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.page = doc.addPage([WIDTH, HEIGHT]);
  }

  private text(s: string): string {
    return toWinAnsi(forPrint(s), this.fonts.regular);
  }

  private room(height: number): boolean {
    if (this.y - height >= MARGIN) return true;
    this.page = this.doc.addPage([WIDTH, HEIGHT]);
    this.y = HEIGHT - MARGIN;
    return false;
  }

  title(title: string): void {
    this.page.drawText(this.text(title), { x: MARGIN, y: this.y - 14, size: 16, font: this.fonts.bold });
    this.y -= 14 + 2 * TEXT.leading;
  }

  paragraph(text: string): void {
    for (const line of wrap(this.text(text), this.fonts.regular, TEXT.size, WIDTH - 2 * MARGIN)) {
      this.room(TEXT.leading);
      this.page.drawText(line, { x: MARGIN, y: this.y - TEXT.size, size: TEXT.size, font: this.fonts.regular });
      this.y -= TEXT.leading;
    }
    this.y -= TEXT.leading * 0.7;
  }

  table(raw: string[][]): void {
    const rows = raw.map((row) => row.map((cell) => this.text(cell)));
    const columns = Math.max(...rows.map((row) => row.length));
    const headers = headerRowCount(rows);
    const layout = tableLayout(rows, columns, headers, this.fonts);
    const drawRow = (row: string[], header: boolean) => printedRow(row, header, columns, layout, this.fonts);
    const draw = (row: string[], header: boolean) => {
      const { lines, height, font, spanning } = drawRow(row, header);
      lines.forEach((cellLines, c) => {
        cellLines.forEach((line, k) => {
          const y = this.y - layout.size - k * layout.leading;
          const width = font.widthOfTextAtSize(line, layout.size);
          let x = layout.x[c];
          if (c === spanning) x = layout.x[1] + (layout.figureWidth - width) / 2;
          else if (c > 0) x = layout.x[c] + layout.widths[c] - width; // figures and their headings right-aligned
          this.page.drawText(line, { x, y, size: layout.size, font });
        });
      });
      this.y -= height + layout.leading * 0.25;
    };
    this.y -= TEXT.leading * 0.3;
    // Printers keep a table's header rows with its first row: a header row left at the foot of a page, the rest of the
    // header over the rows on the next, heads nothing and reads as a line of prose joined to the page after.
    this.room(rows.slice(0, headers + 1).reduce((sum, row, r) => sum + drawRow(row, r < headers).height + layout.leading * 0.25, 0));
    rows.forEach((row, r) => {
      const header = r < headers;
      if (!this.room(drawRow(row, header).height) && !header) rows.slice(0, headers).forEach((h) => draw(h, true));
      draw(row, header);
    });
    this.y -= TEXT.leading;
  }
}

/** A row as printed: each cell's lines wrapped in its column, the row's height, its font, a heading spanning the figures. */
function printedRow(row: string[], header: boolean, columns: number, layout: TableLayout, fonts: { regular: PDFFont; bold: PDFFont }) {
  const font = header ? fonts.bold : fonts.regular;
  const lines = row.map((cell, c) => wrap(cell, font, layout.size, layout.widths[c]));
  // A header row with one heading over the figure columns ("Years Ended September 30,") is centred over them all.
  const spanning = header && row.slice(1).filter(Boolean).length === 1 && columns > 2 ? row.findIndex((cell, c) => c > 0 && cell) : -1;
  if (spanning > 0) lines[spanning] = wrap(row[spanning], font, layout.size, layout.figureWidth);
  const height = Math.max(1, ...lines.map((l) => l.length)) * layout.leading;
  return { lines, height, font, spanning };
}

/**
 * The table's column headings as printed: how many lines they take (1 for "2019 2018"; more for several header rows),
 * and whether a heading wraps in its column ("Less Than" over "1 Year"). A text layer gives one line per printed line,
 * so a wrapped heading arrives split over lines that hold the other columns' words.
 */
export async function printedHeader(table: string[][]): Promise<{ lines: number; wraps: boolean }> {
  const doc = await PDFDocument.create();
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const rows = table.map((row) => row.map((cell) => toWinAnsi(forPrint(cell), fonts.regular)));
  const columns = Math.max(...rows.map((row) => row.length));
  const headers = headerRowCount(rows);
  const layout = tableLayout(rows, columns, headers, fonts);
  const printed = rows.slice(0, headers).map((row) => printedRow(row, true, columns, layout, fonts).lines);
  return {
    lines: printed.reduce((sum, cells) => sum + Math.max(1, ...cells.map((l) => l.length)), 0),
    wraps: printed.some((cells) => cells.some((l, c) => c > 0 && l.length > 1)),
  };
}

interface TableLayout {
  size: number;
  leading: number;
  widths: number[];
  x: number[];
  /** From the first figure column's left edge to the last one's right edge. */
  figureWidth: number;
}

/**
 * Column widths: each figure column as wide as its widest body cell (headings wrap to it, at least 48 pt), the label
 * column the rest. The type shrinks (10 to 6 pt) until the label column has MIN_LABEL_WIDTH or its widest label.
 */
function tableLayout(rows: string[][], columns: number, headers: number, fonts: { regular: PDFFont; bold: PDFFont }): TableLayout {
  const available = WIDTH - 2 * MARGIN;
  let size = 9;
  for (;;) {
    const widths = Array.from({ length: columns }, (_, c) => {
      if (c === 0) return 0;
      const body = rows.slice(headers).map((row) => fonts.regular.widthOfTextAtSize(row[c] ?? '', size));
      const headingWords = rows.slice(0, headers).flatMap((row) => (row[c] ?? '').split(' ').map((w) => fonts.bold.widthOfTextAtSize(w, size)));
      const hasText = rows.some((row) => (row[c] ?? '') !== '');
      return hasText ? Math.max(size * FIGURE_COLUMN.minWidthEm, ...body, ...headingWords) : 0;
    });
    const figures = widths.slice(1).reduce((n, w) => n + w + (w > 0 ? GAP : 0), 0);
    const widestLabel = Math.max(0, ...rows.map((row) => fonts.regular.widthOfTextAtSize(row[0] ?? '', size)));
    widths[0] = Math.max(available - figures, 40);
    if (widths[0] >= Math.min(MIN_LABEL_WIDTH, widestLabel) || size <= 6) {
      widths[0] = Math.min(widths[0], Math.max(widestLabel, MIN_LABEL_WIDTH));
      const x: number[] = [];
      let at = MARGIN;
      widths.forEach((w, c) => {
        x.push(at);
        at += w + (w > 0 || c === 0 ? GAP : 0);
      });
      const lastFigure = widths.length - 1;
      return { size, leading: size * 1.3, widths, x, figureWidth: Math.max(widths[lastFigure] ?? 0, x[lastFigure] + widths[lastFigure] - (x[1] ?? MARGIN)) };
    }
    size -= 0.5;
  }
}

/** Words wrapped at `width` (a single word wider than that keeps a line of its own). */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The context's page PDF, rendered once and kept in .bench-tmp/tatqa-pages (git-ignored: the data is never committed).
 * The folder is named by a hash of this file, so a change to the rendering renders every page again.
 */
export async function cachedTatqaPagePdf(context: TatqaContext): Promise<Uint8Array> {
  const version = crypto.createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 12);
  const file = path.join(REPO_ROOT, '.bench-tmp', 'tatqa-pages', version, `${context.table.uid}.pdf`);
  if (fs.existsSync(file)) return new Uint8Array(fs.readFileSync(file));
  const bytes = await tatqaPagePdf(context);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return bytes;
}

const INGEST_TIMEOUT_MS = 3_600_000;

/** One session per report: every upload queued at once, then waited for; returns the session ids in report order. */
export async function ingestReports(api: ApiClient, uids: string[], pdf: (i: number) => Promise<Uint8Array>): Promise<string[]> {
  const sessions: string[] = [];
  const jobs: string[] = [];
  for (const [i, uid] of uids.entries()) {
    const sessionId = await api.createSession(`Annual report ${uid.slice(0, 8)}`);
    jobs.push((await api.uploadAndIngest(sessionId, `annual-report-${uid.slice(0, 8)}.pdf`, await pdf(i), 'application/pdf')).jobId);
    sessions.push(sessionId);
  }
  // Waited for one after another (they run meanwhile): a hundred jobs polled at once, each every 100 ms, reset connections.
  const done = [];
  for (const id of jobs) done.push(await api.waitForJob(id, INGEST_TIMEOUT_MS));
  const failed = done.filter((j) => j.status !== 'completed');
  if (failed.length > 0) throw new Error(`TAT-QA ingestion failed: ${JSON.stringify(failed)}`);
  return sessions;
}
