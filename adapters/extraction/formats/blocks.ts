/**
 * What the readers of structured formats (HTML, Word, Markdown, sheets, slides) make of a document before it is text:
 * headings, paragraphs, list items and tables, grouped into units (a section, a sheet, a slide) that become the
 * document's "pages" — what a source cites.
 */
export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'item'; marker: string; depth: number; text: string }
  | { kind: 'table'; rows: string[][] };

/** A unit of a document without pages: its label ("Sheet Q3", "Slide 4", "7. Termination") and its text. */
export interface DocumentUnit {
  label: string;
  text: string;
}

/** A section without headings longer than this is cut at a block boundary into parts, so no page is enormous. */
export const MAX_UNIT_CHARS = 40_000;

/** A table cell that is a figure as the table reader (core/rag/layout.ts) takes it: 1,577 · (1,577) · $5.3 · 30.8% · — */
const FIGURE = /^(?:[-–—]|\(?-?[$€£]?\d[\d,]*(?:\.\d+)?%?\)?)$/;
const YEAR = /\b(?:19|20)\d\d\b/g;

/** Collapses whitespace: a cell or a line of text as one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A table as lines the table reader understands: its header naming the periods ("Item 2019 2018"), then each row's
 * label and its figures separated by spaces ("Revenue 1,200 1,100"), an empty figure as "—" so the columns stay
 * aligned. Rows (and headers) of words rather than figures keep their cells apart with " | ".
 */
export function tableLines(rows: readonly (readonly string[])[]): string[] {
  const cleaned = rows.map((row) => row.map(oneLine));
  // Columns empty in every row are dropped (spreadsheets and HTML layouts leave many).
  const width = Math.max(0, ...cleaned.map((row) => row.length));
  const used = Array.from({ length: width }, (_, c) => cleaned.some((row) => (row[c] ?? '') !== ''));
  const lines: string[] = [];
  cleaned.forEach((row, r) => {
    const cells = row.filter((_, c) => used[c]);
    if (cells.every((cell) => cell === '')) return;
    const [label, ...rest] = cells;
    // Only the first row can be the header (a sheet of 100,000 rows is not searched for years row by row).
    const header = r === 0 && (cells.join(' ').match(YEAR) ?? []).length >= 2 && rest.every((cell) => !/\d[\d,]*\.\d|\$/.test(cell));
    const figures = rest.length > 0 && rest.every((cell) => cell === '' || FIGURE.test(cell));
    if (header) lines.push(cells.filter(Boolean).join(' '));
    else if (figures) lines.push([label || '', ...rest.map((cell) => cell || '—')].filter(Boolean).join(' '));
    else lines.push(cells.join(' | '));
  });
  return lines;
}

/** The blocks as text: a heading, a paragraph or a table each a paragraph of its own (blank lines between). */
export function renderBlocks(blocks: readonly Block[]): string {
  const out: string[] = [];
  let inList = false;
  for (const block of blocks) {
    if (block.kind === 'item') {
      if (!inList && out.length > 0) out.push('');
      out.push(`${'  '.repeat(block.depth)}${block.marker} ${oneLine(block.text)}`);
      inList = true;
      continue;
    }
    if (out.length > 0) out.push('');
    inList = false;
    if (block.kind === 'table') out.push(...tableLines(block.rows));
    else out.push(oneLine(block.text));
  }
  return out.join('\n');
}

/**
 * Units of a document from its headings: a section starts at each heading of the highest level it uses, or of the
 * level below when the highest holds just a title (the text before the first section is a unit of its own), labelled by its heading; a document without headings is one unit (cut
 * into parts when long). `fallback` labels a unit without a heading.
 */
export function sectionUnits(blocks: readonly Block[], fallback: string): DocumentUnit[] {
  const levels = blocks.flatMap((b) => (b.kind === 'heading' ? [b.level] : []));
  let top = Math.min(...levels);
  // One heading of the top level is the document's title (a README's "# Name"): its sections are the level below.
  const below = Math.min(...levels.filter((level) => level > top));
  if (levels.filter((level) => level === top).length === 1 && Number.isFinite(below)) top = below;
  const sections: { label: string; blocks: Block[] }[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading' && block.level === top) sections.push({ label: oneLine(block.text), blocks: [block] });
    else if (sections.length === 0) sections.push({ label: fallback, blocks: [block] });
    else sections.at(-1)!.blocks.push(block);
  }
  return sections.flatMap((section) => cutLong(section.label, section.blocks));
}

/** A section as units of at most MAX_UNIT_CHARS of text (one block may be longer): "label", "label (part 2)", … */
function cutLong(label: string, blocks: readonly Block[]): DocumentUnit[] {
  const units: DocumentUnit[] = [];
  let current: Block[] = [];
  let size = 0;
  const close = () => {
    if (current.length === 0) return;
    const text = renderBlocks(current);
    if (text.trim()) units.push({ label: units.length === 0 ? label : `${label} (part ${units.length + 1})`, text });
    current = [];
    size = 0;
  };
  for (const block of blocks) {
    const length = block.kind === 'table' ? block.rows.reduce((n, row) => n + row.join(' ').length, 0) : block.text.length;
    if (size > 0 && size + length > MAX_UNIT_CHARS) close();
    current.push(block);
    size += length;
  }
  close();
  return units;
}
