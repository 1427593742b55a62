/**
 * Page text from PDFium's characters, laid out in lines as pdf.js's text path lays them out (pdfjs-text.ts):
 * characters in content order, a new line where the baseline moves by a line, cells of a table row on one line.
 * PDFium's own FPDFText_GetText differs where it matters for chunking: it starts a new line for every superscript
 * (a footnote mark, an exponent) and marks a hyphen at a line end with U+FFFE; this layout keeps superscripts in
 * their line and writes such a hyphen as '-' (normalizeExtractedText then joins the word as it does for pdf.js).
 * Positions are in the frame of each character's own writing direction, so text set sideways in a margin or on a page
 * turned with /Rotate reads as lines too. A page whose lines run across columns of prose is read column after column
 * (reading-order.ts); pdf.js's layout (PDF_READER=pdfjs) keeps content order there.
 */

import { readingOrder, type TextSegment } from './reading-order.js';
import { withTableHeadings } from './table-headings.js';

/**
 * One character as PDFium reports it. x runs along its line and y across it (up): page coordinates turned by the
 * character's angle.
 */
export interface PageChar {
  /** UTF-32 code point; 0xFFFE is PDFium's mark for a hyphen that ended a line. */
  code: number;
  /** PDFium inserted it (a space between words, a line break): not drawn on the page. */
  generated: boolean;
  /** Origin on the baseline. */
  x: number;
  y: number;
  /** Left and right of the glyph's box along the line. */
  left: number;
  right: number;
  /** Font size in points (0 when unknown). */
  size: number;
  /** Direction of writing in radians (0: left to right); only compared between characters. */
  angle: number;
}

const SPACE = 0x20;
const HYPHEN_MARK = 0xfffe;
/** A character starts a new line when its baseline lies this many font sizes (of the line or itself) away. */
const NEW_LINE_BASELINE_SHIFT = 0.5;
/** A gap wider than this many font sizes (of the smaller glyph) separates words where PDFium put no space. */
const WORD_GAP = 0.1;
/**
 * Going back along the line by more than this many font sizes starts a new line (text drawn out of order), except in
 * right-to-left scripts, whose letters go back along the line one by one.
 */
const BACKWARDS_NEW_LINE = 1;
/**
 * A gap wider than this many font sizes (of the smaller glyph: a large bullet must not hide a gutter) within a line ends
 * a segment: a column's gutter, or a gap between table cells.
 */
const SEGMENT_GAP = 1;
/** Characters whose directions differ by more than this (radians) are not on one line. */
const SAME_ANGLE = 0.05;
const TURN = 2 * Math.PI;

const isRightToLeft = (code: number) => (code >= 0x0590 && code <= 0x08ff) || (code >= 0xfb1d && code <= 0xfefc);
const isBlank = (code: number) => code === SPACE || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;

/** Typographic ligatures as separate letters, as pdf.js writes them (its text normalisation), so words compare. */
function charText(code: number): string {
  if (code === HYPHEN_MARK) return '-';
  if (code >= 0xfb00 && code <= 0xfb06) return String.fromCodePoint(code).normalize('NFKC');
  return code > 0x10ffff ? '' : String.fromCodePoint(code);
}

/** Lays out the characters of one page, in PDFium's (content) order, into lines; columns of prose one after another. */
export function layOutPageText(chars: Iterable<PageChar>): string {
  const lines: TextSegment[][] = [];
  let line: TextSegment[] = [];
  let segment: TextSegment | undefined;
  let lineY = 0;
  let lineSize = 0;
  let lineAngle = 0;
  let lastRight = 0;
  let lastSize = 0;
  let space = false;
  // Only pages of left-to-right text set upright are looked at for columns (readingOrder).
  let upright = true;
  for (const char of chars) {
    if (char.generated || isBlank(char.code)) {
      // PDFium's generated line breaks are not trusted (it breaks before superscripts); its word spaces are, and so
      // is any blank the PDF draws (some fonts map their space glyph to a line feed).
      if (!char.generated || char.code === SPACE) space = true;
      continue;
    }
    const { y } = char;
    const size = char.size > 0 ? char.size : lineSize || 10;
    const text = charText(char.code);
    if (!text) continue;
    if (char.angle !== 0 || isRightToLeft(char.code)) upright = false;
    if (segment) {
      const em = Math.max(lineSize, size);
      const turned = Math.abs(((char.angle - lineAngle) % TURN + TURN * 1.5) % TURN - TURN / 2) > SAME_ANGLE;
      const newLine = turned || Math.abs(y - lineY) >= NEW_LINE_BASELINE_SHIFT * em || (char.left < lastRight - BACKWARDS_NEW_LINE * em && !isRightToLeft(char.code));
      if (newLine) {
        lines.push(line);
        line = [];
        segment = undefined;
      } else if (char.left - lastRight > SEGMENT_GAP * Math.min(lastSize, size)) {
        // A gap this wide within a line: the next column, or the next cell of a table row (written with a space).
        segment = undefined;
      } else if (space || char.left - lastRight > WORD_GAP * Math.min(lastSize, size)) {
        segment.text += ' ';
      }
    }
    if (line.length === 0 || size > lineSize) {
      // The line's baseline is that of its largest characters: a superscript that starts a line does not set it.
      lineY = y;
      lineSize = size;
      lineAngle = char.angle;
    }
    if (!segment) {
      segment = { text: '', left: char.left, right: char.right, y, size };
      line.push(segment);
    } else if (size > segment.size) {
      segment.y = y;
      segment.size = size;
    }
    segment.text += text;
    segment.right = Math.max(segment.right, char.right, char.left);
    lastRight = Math.max(char.right, char.left);
    lastSize = size;
    space = false;
  }
  if (line.length > 0) lines.push(line);
  const ordered = upright ? readingOrder(lines) : undefined;
  return (ordered ?? withTableHeadings(lines)).join('\n');
}
