import { Parser } from 'htmlparser2';
import { format as formatNumber } from 'numfmt';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { tableLines, type DocumentUnit } from './blocks.js';
import { tooManyRows } from './text-units.js';
import { childrenNamed, descendants, isElement, localName, parseXmlPart, refuseDtd, relationships, textContent, type DomElement, type DomNode } from './xml-tree.js';
import type { ZipParts } from './zip-parts.js';

/** Excel's built-in number formats (ECMA-376 18.8.30), by id: a cell's style names one of these or a custom code. */
const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?',
  13: '# ??/??', 14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM',
  20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy h:mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

interface Workbook {
  sheets: { name: string; part: string }[];
  strings: string[];
  /** The number format code of each cell style (cellXfs), by the style's index. */
  styleFormats: string[];
  date1904: boolean;
}

/**
 * An Excel workbook (.xlsx, .xlsm): a unit per sheet ("Sheet Q3"), each a table of the values as Excel shows them
 * (number formats applied by numfmt, a maintained implementation of Excel's format codes). The parts are read with
 * htmlparser2 in XML mode (no DTD, no entities beyond XML's own); a sheet's rows are streamed, and more than
 * `maxRows` rows in the workbook refuse it (MAX_SHEET_ROWS). Macros (vbaProject.bin) are never read. No dedicated
 * workbook library fits: exceljs and SheetJS read the whole zip with their own unbounded inflating, and neither
 * applies the number formats.
 */
export function xlsxUnits(zip: ZipParts, maxRows: number): DocumentUnit[] {
  if (!zip.has('xl/workbook.xml')) throw new UnprocessableDocumentError('The file is not an Excel workbook (it has no xl/workbook.xml): it may be mislabelled');
  const workbook = readWorkbook(zip);
  let rowsLeft = maxRows;
  const units: DocumentUnit[] = [];
  for (const sheet of workbook.sheets) {
    const xml = zip.textOf(sheet.part);
    if (xml === undefined) continue;
    const rows = sheetRows(xml, sheet.part, workbook, rowsLeft, maxRows);
    rowsLeft -= rows.length;
    const lines = tableLines(rows);
    if (lines.length > 0) units.push({ label: `Sheet ${sheet.name}`, text: `Sheet ${sheet.name}\n\n${lines.join('\n')}` });
  }
  return units;
}

function readWorkbook(zip: ZipParts): Workbook {
  const book = parseXmlPart(zip.textOf('xl/workbook.xml')!, 'xl/workbook.xml');
  const rels = relationships(zip.textOf('xl/_rels/workbook.xml.rels'), 'xl', 'xl/_rels/workbook.xml.rels');
  const sheets = descendants(book, 'sheet').flatMap((sheet) => {
    const part = rels.get(sheet.attribs['r:id'] ?? '');
    return part ? [{ name: sheet.attribs.name ?? part, part }] : [];
  });
  const date1904 = descendants(book, 'workbookPr').some((pr) => pr.attribs.date1904 === '1' || pr.attribs.date1904 === 'true');
  const shared = zip.textOf('xl/sharedStrings.xml');
  // A shared string's text is its runs' text, without the phonetic guide (<rPh>) some East Asian files carry.
  const strings = shared ? descendants(parseXmlPart(shared, 'xl/sharedStrings.xml'), 'si').map((si) => stringItemText(si)) : [];
  const styles = zip.textOf('xl/styles.xml');
  const styleFormats: string[] = [];
  if (styles) {
    const doc = parseXmlPart(styles, 'xl/styles.xml');
    const custom = new Map(descendants(doc, 'numFmt').map((f) => [Number(f.attribs.numFmtId), f.attribs.formatCode ?? 'General']));
    for (const xfs of descendants(doc, 'cellXfs')) {
      for (const xf of childrenNamed(xfs, 'xf')) {
        const id = Number(xf.attribs.numFmtId ?? 0);
        styleFormats.push(custom.get(id) ?? BUILT_IN_FORMATS[id] ?? 'General');
      }
    }
  }
  return { sheets, strings, styleFormats, date1904 };
}

function stringItemText(si: DomElement): string {
  return descendants(si, 't')
    .filter((t) => !(t.parent && isElement(t.parent as DomNode) && localName(t.parent as DomElement) === 'rPh'))
    .map((t) => textContent(t))
    .join('');
}

/** "AB12" → 27 (0-based column). */
function columnOf(reference: string | undefined, fallback: number): number {
  const letters = /^[A-Z]+/.exec(reference ?? '')?.[0];
  if (!letters) return fallback;
  let column = 0;
  for (const ch of letters) column = column * 26 + (ch.charCodeAt(0) - 64);
  return column - 1;
}

/** A sheet's rows of shown values, streamed (a sheet of 100,000 rows is never a tree in memory). */
function sheetRows(xml: string, part: string, book: Workbook, rowsLeft: number, maxRows: number): string[][] {
  refuseDtd(xml, part);
  const rows: string[][] = [];
  let row: string[] | undefined;
  let cell: { column: number; type: string; style: number } | undefined;
  let value = '';
  let inValue = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'row') {
          if (rows.length >= rowsLeft) throw tooManyRows('The workbook', maxRows);
          row = [];
        } else if (local === 'c' && row) {
          cell = { column: columnOf(attribs.r, row.length), type: attribs.t ?? 'n', style: Number(attribs.s ?? 0) };
          value = '';
        } else if ((local === 'v' || local === 't') && cell) inValue = true;
      },
      ontext(text) {
        if (inValue) value += text;
      },
      onclosetag(name) {
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'v' || local === 't') inValue = false;
        else if (local === 'c' && cell && row) {
          if (cell.column < 16_384) row[cell.column] = shownValue(value, cell.type, book.styleFormats[cell.style] ?? 'General', book);
          cell = undefined;
        } else if (local === 'row' && row) {
          rows.push(Array.from(row, (v) => v ?? ''));
          row = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  return rows;
}

/** A cell's value as Excel shows it: its shared string, its text, TRUE/FALSE, or its number in the cell's format. */
function shownValue(raw: string, type: string, formatCode: string, book: Workbook): string {
  switch (type) {
    case 's':
      return book.strings[Number(raw)] ?? '';
    case 'inlineStr':
    case 'str':
    case 'e':
      return raw;
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'd':
      return raw;
    default: {
      const number = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(number)) return raw;
      try {
        return formatNumber(formatCode, number, { dateSpanLarge: true, date1904: book.date1904, fillChar: '', throws: false } as never);
      } catch {
        return raw;
      }
    }
  }
}
