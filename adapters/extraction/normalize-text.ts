/**
 * Cleans text from the PDF text layer or from OCR so that chunking and embeddings see plain prose:
 * - runs of whitespace (tabs from table cells, double spaces, NBSP) within a line become one space;
 * - a word split across lines by a hyphen is joined ("exam-\nple" -> "example"); only when the next line
 *   starts with a lower-case letter, so "Ein-\nund Ausgang"-style ranges are rarely affected and "Foo -\nBar" never;
 * - a year printed letter-spaced on a line of years and words ("2019 2 0 1 8", a column header) is joined ("2019 2018");
 * - line breaks are kept, blank lines (paragraph breaks) are collapsed to one empty line.
 */
export function normalizeExtractedText(raw: string): string {
  const text = raw
    .replace(/\r\n?|[\f\v\u2028\u2029]/g, '\n')
    // Invisible characters and control codes (pdf.js leaves e.g. U+0003 from broken font encodings).
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\u200b-\u200d\u2060\ufeff]/g, '')
    // A soft hyphen only marks where a word may break: drop it, with the line break it caused.
    .replace(/\u00ad\n?/g, '');

  const lines = text.split('\n').map((line) => withYearsJoined(line.replace(/\s+/g, ' ').trim()));

  return lines
    .join('\n')
    .replace(/(\p{L})[-\u2010]\n(?=\p{Ll})/gu, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The PDF text layer loses paragraph breaks: pdf.js ends every visual line with one newline. A line that ends a
 * sentence while stopping well short of the page's usual line length, followed by a line that starts a new one,
 * ends a paragraph (the usual heuristic of PDF-to-text tools); mark it with a blank line so chunking can keep
 * paragraphs apart.
 */
export function markParagraphBreaks(text: string): string {
  const lines = text.split('\n');
  const lengths = lines.map((l) => l.length).filter((n) => n >= 20).sort((a, b) => a - b);
  if (lengths.length < 3) return text;
  const typical = lengths[Math.floor(lengths.length * 0.9)];
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    const next = lines[i + 1];
    if (!next || line === '' || next === '') return;
    const endsSentence = /[.!?:…]["'”’)\]]?$/.test(line);
    const startsSentence = /^["'“‘(\[]?[\p{Lu}\p{N}]/u.test(next);
    if (endsSentence && startsSentence && line.length < typical * 0.8) out.push('');
  });
  return out.join('\n');
}

/**
 * Letters and digits: what makes a page "have text" (punctuation and rules do not). Counting stops at `atMost`: the
 * callers only ask "fewer than 16?" or "any?", and matching every letter of a 5,000-page report made millions of
 * one-letter strings for the garbage collector.
 */
export function countWordCharacters(text: string, atMost = Infinity): number {
  const letters = /[\p{L}\p{N}]/gu;
  let count = 0;
  while (count < atMost && letters.exec(text) !== null) count++;
  return count;
}

const SPACED_YEAR = /\b(1 9|2 0) (\d) (\d)\b/g;

/** A line whose only figures are years, some letter-spaced, with those joined; any other line as it is. */
function withYearsJoined(line: string): string {
  if (!SPACED_YEAR.test(line)) return line;
  SPACED_YEAR.lastIndex = 0;
  const joined = line.replace(SPACED_YEAR, (_, century: string, tens: string, ones: string) => `${century.replace(' ', '')}${tens}${ones}`);
  return /\d/.test(joined.replace(/\b(?:19|20)\d\d\b/g, '')) ? line : joined;
}
