/**
 * The parts of an answer's text as the answerers write it (docs/api.md, "Chat answer"): a direct line, the quote that
 * supports it, "Also found: …" or "Closest found: …" passages, and a "Sources: [1] a.pdf, page 2; …" line. The app
 * shows the sources as buttons of their own, so the Sources line is left out of the display (Copy and Export keep it).
 */
export type Block =
  | { kind: 'lead'; text: string }
  | { kind: 'not-found'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'table'; rows: string[][]; header: boolean }
  | { kind: 'folded'; label: 'Also found' | 'Closest found'; count: number; blocks: Block[] };

/** The answerers' own "not found" lines (the extractive one's and the shape issue 49 asks for). */
const NOT_FOUND = /^(I could not find\b|Your documents don['’]t say\b|No answer (?:was )?found\b)/i;
const FOLDED = /^(Also found|Closest found):\s*/;
const SOURCES = /^Sources:\s/;

export function answerBlocks(text: string): Block[] {
  const paragraphs = text.split(/\n{2,}/).map((p) => p.replace(/^\n+|\n+$/g, '')).filter((p) => p.trim() !== '');
  const blocks: Block[] = [];
  paragraphs.forEach((paragraph, i) => {
    if (SOURCES.test(paragraph)) return;
    const folded = FOLDED.exec(paragraph);
    if (folded) {
      const rest = paragraph.slice(folded[0].length);
      blocks.push({ kind: 'folded', label: folded[1] as 'Also found' | 'Closest found', count: passageCount(rest), blocks: plainBlocks(rest) });
      return;
    }
    if (i === 0 && NOT_FOUND.test(paragraph)) return blocks.push({ kind: 'not-found', text: paragraph });
    const table = tableOf(paragraph);
    if (table) return blocks.push(table);
    // A first paragraph that is not itself a quotation answers: it leads. One that opens with a quote is evidence.
    if (i === 0 && !/^\s*[“"]/.test(paragraph)) return blocks.push({ kind: 'lead', text: paragraph });
    blocks.push({ kind: 'text', text: paragraph });
  });
  return blocks;
}

/** The passages under "Also found": one per quotation, else one per distinct [n]. */
function passageCount(text: string): number {
  const quotes = text.match(/“[^”]*”/g)?.length ?? 0;
  if (quotes > 0) return quotes;
  return new Set(text.match(/\[\d+\]/g) ?? []).size || 1;
}

function plainBlocks(text: string): Block[] {
  const table = tableOf(text);
  return [table ?? { kind: 'text', text }];
}

/**
 * A Markdown-style table (every line "| a | b |", an optional "|---|---|" line under the header) as rows of cells;
 * undefined for anything else. A model answering with a table writes it so.
 */
export function tableOf(paragraph: string): Block | undefined {
  const lines = paragraph.split('\n').map((l) => l.trim());
  if (lines.length < 2 || !lines.every((l) => l.startsWith('|') && l.endsWith('|') && l.length > 1)) return undefined;
  const cells = (line: string) => line.slice(1, -1).split('|').map((c) => c.trim());
  const separator = (line: string) => /^\|(\s*:?-{2,}:?\s*\|)+$/.test(line);
  const header = lines.length > 2 && separator(lines[1]);
  const rows = lines.filter((l) => !separator(l)).map(cells);
  return { kind: 'table', rows, header };
}

/** The [n] numbers the text cites, in the order they first appear outside quotations and outside the Sources line. */
export function markerOrder(text: string): number[] {
  const shown = text.split(/\n{2,}/).filter((p) => !SOURCES.test(p)).join('\n\n').replace(/“[^”]*”/g, '');
  const order: number[] = [];
  for (const m of shown.matchAll(/\[(\d+)\]/g)) {
    const n = Number(m[1]);
    if (!order.includes(n)) order.push(n);
  }
  return order;
}
