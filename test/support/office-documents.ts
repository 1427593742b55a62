/**
 * Everyday documents made by the tests with the libraries people make them with (docx, exceljs, pptxgenjs, utif2,
 * @napi-rs/canvas), and hostile variants of them (a zip bomb, XML entities, macros), for the format readers.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import ExcelJS from 'exceljs';
import pptxgen from 'pptxgenjs';
import UTIF from 'utif2';
import { createCanvas } from '@napi-rs/canvas';
import { textPng } from './generated-documents.js';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)], width: { size: 2000, type: WidthType.DXA } });

/** A contract: a title, numbered sections (Heading 1), a bulleted list and a table of fees by year. */
export async function contractDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [{
      children: [
        new Paragraph({ text: 'Service agreement between Northwind and Contoso', heading: HeadingLevel.TITLE }),
        new Paragraph({ text: '1. Scope', heading: HeadingLevel.HEADING_1 }),
        new Paragraph('Northwind maintains the lighthouse cameras of Contoso on the northern coast.'),
        new Paragraph({ text: 'Weekly inspection of every camera', bullet: { level: 0 } }),
        new Paragraph({ text: 'Repairs within two working days', bullet: { level: 0 } }),
        new Paragraph({ text: '2. Fees', heading: HeadingLevel.HEADING_1 }),
        new Paragraph('The fees per year are set out below.'),
        new Table({
          rows: [
            new TableRow({ children: [cell('Fee'), cell('2019'), cell('2018')] }),
            new TableRow({ children: [cell('Maintenance fee'), cell('4,200'), cell('3,900')] }),
            new TableRow({ children: [cell('Repair allowance'), cell('1,150'), cell('980')] }),
          ],
        }),
        new Paragraph({ text: '7. Termination', heading: HeadingLevel.HEADING_1 }),
        new Paragraph({ children: [new TextRun('Either party may end this agreement with ninety days notice in writing.')], alignment: AlignmentType.LEFT }),
      ],
    }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A budget: sheet "Q3" with number formats (thousands, decimals, percent, a date), sheet "Staff" with words. */
export async function budgetXlsx(extraRows = 0): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const q3 = book.addWorksheet('Q3');
  q3.addRow(['Line', 2019, 2018]);
  const rows: [string, number, number][] = [['Travel budget', 12500, 11800.5], ['Office supplies', 3400.25, 2950], ['Training', 8000, 7600]];
  for (const [label, a, b] of rows) {
    const row = q3.addRow([label, a, b]);
    row.getCell(2).numFmt = '#,##0';
    row.getCell(3).numFmt = '#,##0.00';
  }
  const share = q3.addRow(['Share of total', 0.25, 0.3]);
  share.getCell(2).numFmt = '0%';
  share.getCell(3).numFmt = '0%';
  const staff = book.addWorksheet('Staff');
  staff.addRow(['Name', 'Role', 'Started']);
  const started = staff.addRow(['Ada Lovelace', 'Analyst', new Date(Date.UTC(2019, 2, 15))]);
  started.getCell(3).numFmt = 'yyyy-mm-dd';
  if (extraRows > 0) {
    const big = book.addWorksheet('Log');
    for (let i = 0; i < extraRows; i++) big.addRow([`entry ${i}`, i, i * 2]);
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A deck: a title slide, a slide of bullets with speaker notes, and a slide with a table of figures. */
export async function deckPptx(): Promise<Uint8Array> {
  const pres = new (pptxgen as unknown as { new (): import('pptxgenjs').default })();
  const first = pres.addSlide();
  first.addText('Harbour renovation', { placeholder: 'title', x: 0.5, y: 0.5, w: 9, h: 1, fontSize: 32 });
  first.addText('Project review for the town council', { x: 0.5, y: 2, w: 9, h: 1 });
  const second = pres.addSlide();
  second.addText('Timeline', { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28 });
  second.addText([{ text: 'Dredging finishes in March', options: { bullet: true } }, { text: 'New pier opens in June', options: { bullet: true } }], { x: 0.5, y: 1.5, w: 9, h: 2 });
  second.addNotes('Remind the council that the pier opening depends on the weather.');
  const third = pres.addSlide();
  third.addText('Costs', { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28 });
  third.addTable([
    [{ text: 'Item' }, { text: '2019' }, { text: '2018' }],
    [{ text: 'Dredging' }, { text: '2,400' }, { text: '1,900' }],
    [{ text: 'Pier' }, { text: '5,100' }, { text: '4,300' }],
  ], { x: 0.5, y: 1.5, w: 9 });
  return new Uint8Array((await pres.write({ outputType: 'nodebuffer' })) as Buffer);
}

/** The parts of a zip package, changed by `edit` (parts added, replaced or removed), packed again. */
export function repack(zip: Uint8Array, edit: (parts: Record<string, Uint8Array>) => void): Uint8Array {
  const parts = unzipSync(zip);
  edit(parts);
  return zipSync(parts);
}

/** A package with a part of `megabytes` of spaces (it packs ~1000×): a zip bomb in small. */
export function withBombPart(zip: Uint8Array, name: string, megabytes: number): Uint8Array {
  return repack(zip, (parts) => {
    parts[name] = new Uint8Array(megabytes * 1_048_576).fill(0x20);
  });
}

/** The package with `part` replaced by a "billion laughs" document: nested entities that expand exponentially. */
export function withEntityExpansion(zip: Uint8Array, part: string, root: string): Uint8Array {
  const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
  const xml = `<?xml version="1.0"?><!DOCTYPE ${root} [<!ENTITY l0 "laugh">${levels}]><${root}>&l10;</${root}>`;
  return repack(zip, (parts) => {
    parts[part] = strToU8(xml);
  });
}

/** The package with a VBA project (what makes a .docm/.xlsm) whose code would run on opening in Office. */
export function withMacros(zip: Uint8Array, folder: 'word' | 'xl' | 'ppt'): Uint8Array {
  return repack(zip, (parts) => {
    parts[`${folder}/vbaProject.bin`] = strToU8('Attribute VB_Name = "ThisDocument"\nSub AutoOpen()\n  Shell "calc.exe"\nEnd Sub\n');
  });
}

/** A TIFF of `pages` pages, each drawn text ("Page N of the fax"), or tiny blank pages when `blank`. */
export function multiPageTiff(pages: number, options: { blank?: boolean } = {}): Uint8Array {
  const ifds = Array.from({ length: pages }, (_, i) => {
    const canvas = createCanvas(options.blank ? 16 : 700, options.blank ? 16 : 200);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!options.blank) {
      ctx.fillStyle = '#000';
      ctx.font = '40px sans-serif';
      ctx.fillText(`Page ${i + 1} of the fax`, 30, 110);
    }
    const rgba = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    return { rgba, width: canvas.width, height: canvas.height };
  });
  return tiffOfPages(ifds);
}

/**
 * An uncompressed RGBA TIFF of these pages: utif2 writes the chained directories (UTIF.encode), each pointing at its
 * page's pixels, which follow them (as UTIF.encodeImage lays out one page).
 */
function tiffOfPages(pages: { rgba: Uint8ClampedArray; width: number; height: number }[]): Uint8Array {
  const directories = (base: number) => {
    let offset = base;
    return pages.map(({ width, height }) => {
      const ifd = {
        t256: [width], t257: [height], t258: [8, 8, 8, 8], t259: [1], t262: [2], t273: [offset], t277: [4], t278: [height],
        t279: [width * height * 4], t282: [[72, 1]], t283: [[72, 1]], t284: [1], t286: [[0, 1]], t287: [[0, 1]], t296: [1], t338: [1],
      };
      offset += width * height * 4;
      return ifd;
    });
  };
  const head = new Uint8Array(UTIF.encode(directories(0) as never));
  const base = head.length + 16;
  const header = new Uint8Array(UTIF.encode(directories(base) as never));
  const out = new Uint8Array(base + pages.reduce((n, p) => n + p.rgba.length, 0));
  out.set(header);
  let at = base;
  for (const page of pages) {
    out.set(page.rgba, at);
    at += page.rgba.length;
  }
  return out;
}

export { textPng };
