import { parse as parseCsv } from 'csv-parse/sync';
import { marked } from 'marked';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { MAX_UNIT_CHARS, sectionUnits, tableLines, type DocumentUnit } from './blocks.js';
import { htmlBlocks } from './html-blocks.js';

/**
 * Text of a file declared as text: UTF-8 (a byte-order mark dropped), or UTF-16 with its mark. A file with NUL bytes
 * in its start is binary whatever it was declared as: refused, so a PDF or an executable sent as text/plain is not
 * indexed as noise.
 */
export function decodeText(bytes: Uint8Array, declared: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new UnprocessableDocumentError(`The file content is binary, not text, although it was declared as ${declared}`);
  }
  return new TextDecoder('utf-8').decode(bytes); // invalid sequences become U+FFFD, never an error
}

/** Plain text: its lines as written (lists and headings stay lines), a page per form feed, long ones cut at blank lines. */
export function plainTextUnits(text: string): DocumentUnit[] {
  const pages = text.replace(/\r\n?/g, '\n').split('\f');
  return pages.flatMap((page, p) => cutAtBlankLines(page).map((part, i, all) => ({
    label: pages.length > 1 ? `page ${p + 1}${all.length > 1 ? ` (part ${i + 1})` : ''}` : all.length > 1 ? `part ${i + 1}` : '',
    text: part,
  }))).filter((unit) => unit.text.trim() !== '');
}

function cutAtBlankLines(text: string): string[] {
  if (text.length <= MAX_UNIT_CHARS) return [text];
  const parts: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (current && current.length + paragraph.length > MAX_UNIT_CHARS) {
      parts.push(current);
      current = '';
    }
    // A paragraph longer than a unit on its own is cut at line ends.
    for (let at = 0; at < paragraph.length; at += MAX_UNIT_CHARS) current += (current ? '\n\n' : '') + paragraph.slice(at, at + MAX_UNIT_CHARS);
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * Markdown: rendered by marked (the most used Markdown parser, maintained, no dependencies) to HTML, then read as HTML
 * is, so headings, lists and tables keep their structure; raw HTML in it (a script) is dropped by the HTML reader.
 * A section per top-level heading.
 */
export function markdownUnits(text: string): DocumentUnit[] {
  const html = marked.parse(text, { async: false, gfm: true });
  return sectionUnits(htmlBlocks(html), '');
}

/** A web page: its readable content, a section per top-level heading. */
export function htmlUnits(html: string): DocumentUnit[] {
  return sectionUnits(htmlBlocks(html), '');
}

/**
 * CSV (or semicolon- or tab-separated values): a table, read by csv-parse (the csv project's parser, maintained,
 * streaming-capable, handles quotes and embedded line breaks). Values as written. At most `maxRows` rows
 * (MAX_SHEET_ROWS): a longer file is refused with the reason rather than read in part without saying so.
 */
export function csvUnits(text: string, maxRows: number): DocumentUnit[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, {
      bom: true,
      delimiter: guessDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to_line: maxRows + 2,
    }) as string[][];
  } catch (error) {
    throw new UnprocessableDocumentError(`The CSV file cannot be read: ${(error as Error).message}`, { cause: error });
  }
  if (rows.length > maxRows) throw tooManyRows('The file', maxRows);
  return [{ label: '', text: tableLines(rows).join('\n') }];
}

/** The delimiter most frequent in the first line among comma, semicolon and tab (Excel writes ';' in many locales). */
function guessDelimiter(text: string): string {
  const first = text.slice(0, text.indexOf('\n') >>> 0 || 4096);
  const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

export function tooManyRows(what: string, maxRows: number): UnprocessableDocumentError {
  return new UnprocessableDocumentError(
    `${what} has more than ${maxRows} rows, the limit (MAX_SHEET_ROWS=${maxRows}): split it, or ask the operator to raise the limit`,
  );
}
