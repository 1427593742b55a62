/**
 * Page text from PDFium's characters, laid out in lines as pdf.js's text path lays them out (pdf-parse's getPageText):
 * characters in content order, a new line where the baseline moves by a line, cells of a table row on one line.
 * PDFium's own FPDFText_GetText differs where it matters for chunking: it starts a new line for every superscript
 * (a footnote mark, an exponent), marks a hyphen at a line end with U+FFFE, and returns text outside the crop box
 * (printer's marks); this layout keeps superscripts in their line, writes such a hyphen as '-' (normalizeExtractedText
 * then joins the word as it does for pdf.js) and leaves out characters whose origin lies outside the visible page.
 */

/** One character as PDFium reports it, in display coordinates (x to the right, y up, page rotation applied). */
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
}

export interface Box {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

const SPACE = 0x20;
const HYPHEN_MARK = 0xfffe;
/** A character starts a new line when its baseline lies this many font sizes (of the line or itself) away. */
const NEW_LINE_BASELINE_SHIFT = 0.5;
/** A gap wider than this many font sizes between two glyphs of a line separates words (PDFium did not say so). */
const WORD_GAP = 0.25;
/** Going back along the line by more than this many font sizes starts a new line (text drawn out of order). */
const BACKWARDS_NEW_LINE = 1;
/** Printer's marks sit well outside the crop box; glyphs on its edge (rounding) are kept. */
const CROP_TOLERANCE = 1;

const isBlank = (code: number) => code === SPACE || code === 0x09 || code === 0x0a || code === 0x0d || code === 0xa0 || code === 0x3000;

/** Typographic ligatures as separate letters, as pdf.js writes them (its text normalisation), so words compare. */
function charText(code: number): string {
  if (code === HYPHEN_MARK) return '-';
  if (code >= 0xfb00 && code <= 0xfb06) return String.fromCodePoint(code).normalize('NFKC');
  return code > 0x10ffff ? '' : String.fromCodePoint(code);
}

/** Lays out the characters of one page into lines; `visible` is the crop box in the same coordinates. */
export function layOutPageText(chars: Iterable<PageChar>, visible: Box): string {
  const lines: string[] = [];
  let line = '';
  let lineY = 0;
  let lineSize = 0;
  let lastRight = 0;
  let space = false;
  for (const char of chars) {
    if (char.generated || isBlank(char.code)) {
      // PDFium's generated line breaks are not trusted (it breaks before superscripts); its word spaces are.
      if (char.code === SPACE || char.code === 0xa0 || char.code === 0x3000 || char.code === 0x09) space = true;
      continue;
    }
    const { x, y } = char;
    if (x < visible.left - CROP_TOLERANCE || x > visible.right + CROP_TOLERANCE || y < visible.bottom - CROP_TOLERANCE || y > visible.top + CROP_TOLERANCE) continue;
    const size = char.size > 0 ? char.size : lineSize || 10;
    const text = charText(char.code);
    if (!text) continue;
    if (line !== '') {
      const em = Math.max(lineSize, size);
      const newLine = Math.abs(y - lineY) >= NEW_LINE_BASELINE_SHIFT * em || char.left < lastRight - BACKWARDS_NEW_LINE * em;
      if (newLine) {
        lines.push(line);
        line = '';
      } else if (space || char.left - lastRight > WORD_GAP * em) {
        line += ' ';
      }
    }
    if (line === '' || size > lineSize) {
      // The line's baseline is that of its largest characters: a superscript that starts a line does not set it.
      lineY = y;
      lineSize = size;
    }
    line += text;
    lastRight = Math.max(char.right, char.left);
    space = false;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
