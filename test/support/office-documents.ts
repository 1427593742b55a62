/**
 * Everyday documents made by the tests with the libraries people make them with (docx, exceljs, pptxgenjs, utif2,
 * @napi-rs/canvas), and hostile variants of them (a zip bomb, XML entities, macros), for the format readers.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import ExcelJS from 'exceljs';
import pptxgen from 'pptxgenjs';
import { createCanvas } from '@napi-rs/canvas';
import { pagedTextPdf, textPng } from './generated-documents.js';

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

/** A TIFF of `pages` pages, each drawn text ("Page N of the fax"), uncompressed RGBA. */
export function multiPageTiff(pages: number): Uint8Array {
  const drawn = Array.from({ length: pages }, (_, i) => {
    const canvas = createCanvas(700, 200);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#000';
    ctx.font = '40px sans-serif';
    ctx.fillText(`Page ${i + 1} of the fax`, 30, 110);
    return { pixels: new Uint8Array(ctx.getImageData(0, 0, 700, 200).data.buffer), width: 700, height: 200, channels: 4 };
  });
  return tiffOfPages(drawn);
}

/** A TIFF of `pages` blank 16×16 grey pages (all pointing at the same pixels): a fax of a thousand pages, small. */
export function blankPagesTiff(pages: number): Uint8Array {
  const page = { pixels: new Uint8Array(16 * 16).fill(255), width: 16, height: 16, channels: 1 };
  return tiffOfPages(Array(pages).fill(page));
}

/**
 * A little-endian baseline TIFF (TIFF 6.0: chained image directories, one uncompressed strip per page), written here:
 * utif2's encoder writes into a fixed 20 KB buffer, room for ~85 directories.
 */
function tiffOfPages(pages: { pixels: Uint8Array; width: number; height: number; channels: number }[]): Uint8Array {
  const ENTRIES = 9;
  const ifdSize = 2 + ENTRIES * 12 + 4;
  const unique = [...new Set(pages.map((p) => p.pixels))];
  const pixelStart = 8 + pages.length * ifdSize + 8; // + room for the BitsPerSample array of RGBA pages
  const offsets = new Map<Uint8Array, number>();
  let at = pixelStart;
  for (const pixels of unique) {
    offsets.set(pixels, at);
    at += pixels.length;
  }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, 8, true);
  const bitsAt = 8 + pages.length * ifdSize; // four 8s, shared by every RGBA page
  for (let i = 0; i < 4; i++) view.setUint16(bitsAt + i * 2, 8, true);
  pages.forEach((page, i) => {
    const ifd = 8 + i * ifdSize;
    view.setUint16(ifd, ENTRIES, true);
    const rgba = page.channels === 4;
    const entries: [number, number, number, number][] = [
      [256, 4, 1, page.width], [257, 4, 1, page.height], [258, 3, page.channels, rgba ? bitsAt : 8], [259, 3, 1, 1],
      [262, 3, 1, rgba ? 2 : 1], [273, 4, 1, offsets.get(page.pixels)!], [277, 3, 1, page.channels], [278, 4, 1, page.height],
      [279, 4, 1, page.pixels.length],
    ];
    entries.forEach(([tag, type, count, value], e) => {
      const entry = ifd + 2 + e * 12;
      view.setUint16(entry, tag, true);
      view.setUint16(entry + 2, type, true);
      view.setUint32(entry + 4, count, true);
      if (type === 3 && count === 1) view.setUint16(entry + 8, value, true);
      else view.setUint32(entry + 8, value, true);
    });
    view.setUint32(ifd + 2 + ENTRIES * 12, i + 1 < pages.length ? 8 + (i + 1) * ifdSize : 0, true);
  });
  for (const pixels of unique) out.set(pixels, offsets.get(pixels)!);
  return out;
}

/** A mail with a plain-text body and a PDF of `pdfLines` attached (base64), as a mail client writes it. */
export async function mailWithPdf(body: string, pdfLines: string[]): Promise<Uint8Array> {
  return mailWithAttachments(body, [{ filename: 'invoice.pdf', contentType: 'application/pdf', bytes: await pagedTextPdf([pdfLines]) }]);
}

/** A multipart e-mail with a plain-text body and these attachments (base64, as mail programs send them). */
export function mailWithAttachments(body: string, attachments: { filename: string; contentType: string; bytes: Uint8Array }[]): Uint8Array {
  const parts = attachments.flatMap(({ filename, contentType, bytes }) => [
    '--b1', `Content-Type: ${contentType}; name="${filename}"`, `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64', '', ...(Buffer.from(bytes).toString('base64').match(/.{1,76}/g) ?? []),
  ]);
  return strToU8([
    'From: Harbour Office <office@harbour.example>', 'To: Skipper <skipper@boats.example>', 'Subject: Dues for May',
    'Date: Tue, 02 Jun 2020 10:00:00 +0000', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b1"', '',
    '--b1', 'Content-Type: text/plain; charset=utf-8', '', body, ...parts, '--b1--', '',
  ].join('\r\n'));
}

export { textPng };
