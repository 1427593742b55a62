/**
 * What is looked for of a quote: its parts between "…" (where it left words out), and each of its sentences (it joins
 * the sentences it took of a passage, which the text may hold apart).
 */
export function quotePieces(quote: string): string[] {
  return quote.split(/…|(?<=[.!?]["'”’)]?)\s+(?=\S)/).map((piece) => piece.trim()).filter(Boolean);
}

/** A line of a unit's text shorter than this is not marked for being in a quote: "Yes" or "2019" is in many. */
const MIN_LINE_CHARS = 8;

/**
 * Where the passages (each a source's quote, else its excerpt) are in a unit's text, as [start, end) spans of it, in
 * order, overlapping ones merged. Spaces are compared loosely: an excerpt has the text's line breaks as spaces. A
 * piece not found whole (a quote of table rows joins them in its own order, a row after its column header with " | ")
 * marks the text's lines it holds.
 */
export function passageSpans(text: string, passages: readonly string[]): [number, number][] {
  const flat = flattened(text);
  const found: [number, number][] = [];
  const missed: string[] = [];
  for (const piece of passages.flatMap(quotePieces)) {
    const sought = piece.replace(/\s+/g, ' ');
    const start = flat.text.indexOf(sought);
    if (start >= 0) found.push([flat.at[start]!, flat.at[start + sought.length - 1]! + 1]);
    else missed.push(` ${sought.replace(/\s+\|\s+/g, ' ')} `);
  }
  if (missed.length > 0) {
    for (const line of text.matchAll(/[^\n]+/g)) {
      const words = line[0].trim().replace(/\s+/g, ' ');
      if (words.length < MIN_LINE_CHARS || !missed.some((piece) => piece.includes(` ${words} `))) continue;
      const start = line.index + line[0].indexOf(line[0].trim());
      found.push([start, start + line[0].trim().length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const spans: [number, number][] = [];
  for (const [start, end] of found) {
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/** The text with each run of white space as one space, and where each of its characters is in the text. */
function flattened(text: string): { text: string; at: number[] } {
  let flat = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const space = /\s/.test(text[i]!);
    if (space && (flat.length === 0 || flat.endsWith(' '))) continue;
    flat += space ? ' ' : text[i];
    at.push(i);
  }
  return { text: flat, at };
}
