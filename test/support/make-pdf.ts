import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

/** A paragraph that is exactly this string starts a new page. */
export const PAGE_BREAK = '\f';

/**
 * Helvetica (a standard PDF font, nothing embedded) covers WinAnsi only: other characters become their base letter
 * where one exists, else are dropped. Use the same function on anything compared with the extracted text.
 */
export function toWinAnsi(text: string, font: PDFFont): string {
  let out = '';
  for (const ch of text) {
    if (canEncode(font, ch)) out += ch;
    else {
      const mapped = [...ch.normalize('NFKD').replace(/\p{M}/gu, '')].filter((c) => canEncode(font, c)).join('');
      out += mapped || (/\s/.test(ch) ? ' ' : '');
    }
  }
  return out;
}

const encodable = new Map<string, boolean>();
function canEncode(font: PDFFont, ch: string): boolean {
  let ok = encodable.get(ch);
  if (ok === undefined) {
    try {
      font.encodeText(ch);
      ok = true;
    } catch {
      ok = false;
    }
    encodable.set(ch, ok);
  }
  return ok;
}

/** A letter-size text PDF: optional bold title, then paragraphs wrapped at the margins with a blank line between. */
export async function textPdf(content: { title?: string; paragraphs: string[] }): Promise<{ bytes: Uint8Array; sanitize: (s: string) => string }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [width, height, margin, size, leading] = [612, 792, 60, 11, 14];
  const sanitize = (s: string) => toWinAnsi(s, font);
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const room = (lines: number) => {
    if (y - lines * leading < margin) {
      page = doc.addPage([width, height]);
      y = height - margin;
    }
  };
  if (content.title) {
    page.drawText(sanitize(content.title), { x: margin, y, size: 16, font: bold });
    y -= 2 * leading;
  }
  for (const paragraph of content.paragraphs) {
    if (paragraph === PAGE_BREAK) {
      page = doc.addPage([width, height]);
      y = height - margin;
      continue;
    }
    let line = '';
    const flush = () => {
      room(1);
      page.drawText(line, { x: margin, y, size, font });
      y -= leading;
      line = '';
    };
    for (const word of sanitize(paragraph).split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(candidate, size) > width - 2 * margin) {
        flush();
        line = word;
      } else line = candidate;
    }
    if (line) flush();
    y -= leading;
  }
  return { bytes: await doc.save(), sanitize };
}
