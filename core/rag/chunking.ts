import type { ChunkSection, ExtractedPage } from '../domain/model.js';
import { inferredColumns, isHeading, isTableLine, namedColumns, PERIOD_LINE, splitUnits, type TextUnit } from './layout.js';
import { tableUnitOf } from './tables/figures.js';
import { countWords } from './text.js';

export interface ChunkingOptions {
  /** A chunk closes once it reaches this many words (a single longer sentence is split). */
  targetWords: number;
  /** Sentences of the previous chunk repeated at the start of the next, so an answer spanning the cut is kept whole. */
  overlapSentences: number;
}

/** About a paragraph: on the SQuAD training questions 150 words retrieved and answered better than 80–120 (bench/train-answerer.ts). */
export const DEFAULT_CHUNKING: ChunkingOptions = { targetWords: 150, overlapSentences: 1 };

export interface DraftChunk {
  page: number;
  ordinal: number;
  text: string;
}

/**
 * Sentence-aware chunking that keeps page numbers and the document's structure: chunks never cross a page, so each
 * cites exactly one page. A paragraph break (blank line) closes a chunk once it holds a quarter of the target, so
 * topics stay apart while headings and one-line paragraphs join what follows (and a paragraph ending on a colon runs
 * on into the list that follows it if both fit); overlap repeats sentences only within a paragraph. Table rows stay
 * one per line (core/rag/layout.ts), a heading closes the chunk before it, and every chunk starts with the section
 * title and table column header in force where it starts (unless it holds them already), so a table's title or "2018"
 * find a row on the second page of the table, and a quoted row keeps its column years.
 */
export function chunkPages(pages: ExtractedPage[], options: ChunkingOptions = DEFAULT_CHUNKING): DraftChunk[] {
  const chunker = pageChunker(options);
  return pages.flatMap((page) => chunker(page));
}

/**
 * Chunks a document a page at a time, in page order, with the same result as chunkPages: a long document's caller can
 * give the event loop a turn between pages (5,000 pages take most of a second). What carries over between pages is
 * the section (a statement running over two pages keeps its title and column years) and the chunk ordinal.
 */
export function pageChunker(options: ChunkingOptions = DEFAULT_CHUNKING, from?: ChunkerPosition): PageChunker {
  let ordinal = from?.ordinal ?? 0;
  /** The page's title (headings above its first table), a sub-heading since, and the table's column header. */
  const section: ChunkSection = { ...from?.section };
  const chunkPage = (page: ExtractedPage): DraftChunk[] => {
    const chunks: DraftChunk[] = [];
    const paragraphs = page.text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => splitLongSentences(splitUnits(p), options.targetWords));
    // A page with a title of its own starts a new section where the title starts; one without continues the previous
    // page's (a statement running over two pages, an article's later pages), as does the text above its title.
    const title = pageTitle(paragraphs.flat());
    let seenTable = false;
    /** Units since the last row or column header: a header broken over lines is read from them (inferredColumns). */
    let sinceTable: TextUnit[] = [];
    let lastTableLine: TextUnit | undefined;
    /** Whether the chunk being filled opened where the chunk before it ended inside a table (ChunkSection.inTable). */
    let opensInTable = false;
    let current: TextUnit[] = [];
    let words = 0;
    /** Units already emitted in a chunk that `current` repeats as overlap. */
    let carried = 0;
    let context: string[] = [];
    const emit = () => {
      if (current.length <= carried) return;
      // A chunk that opens on rows (no column header, no prose before them) continues the table the chunk before it ended in.
      const firstTable = current.findIndex((u) => u.kind === 'row' || u.kind === 'columns');
      const continued = opensInTable && current[firstTable]?.kind === 'row' && current.slice(0, firstTable).every(inTableLine);
      chunks.push({ page: page.page, ordinal: ordinal++, text: render(context, current, continued) });
      const last = current.at(-1)!;
      section.inTable = section.columns !== undefined && (last.kind === 'row' || inTableLine(last)) ? true : undefined;
    };
    const reset = (keep: TextUnit[] = [], keepWords = 0) => {
      current = keep;
      words = keepWords;
      carried = keep.length;
    };
    for (const [index, paragraph] of paragraphs.entries()) {
      for (const unit of paragraph) {
        if (unit === title?.opening) Object.assign(section, { title: title.text || undefined, heading: undefined, columns: undefined, unit: undefined, period: undefined, inTable: undefined });
        if (unit.kind === 'row' || unit.kind === 'columns') seenTable = true;
        if (isTableLine(unit)) {
          if (unit.kind === 'row' && !section.columns) section.columns = inferredColumns(sinceTable, unit.text) ?? namedColumns(sinceTable, unit.text);
          // The unit printed between the header and the first row goes with the header into every chunk of the table.
          if (unit.kind === 'row' && lastTableLine?.kind === 'columns') section.unit = sinceTable.find((u) => isUnitLine(u.text))?.text;
          // A period's line among the rows ("December 31, 2018") heads those below it, in the next chunk too.
          if (PERIOD_LINE.test(unit.text) && section.columns) section.period = unit.text;
          lastTableLine = unit;
          sinceTable = [];
        } else sinceTable.push(unit);
        if (unit.kind === 'heading' && seenTable) {
          // A new part of the page: what came before is a chunk of its own once it says enough.
          if (words - carriedWords(current, carried) >= options.targetWords / 4) emit(), reset();
          section.heading = unit.text;
        } else if (unit.kind === 'columns') Object.assign(section, { columns: unit.text, unit: undefined, period: undefined });
        if (current.length === carried) {
          context = [section.title, section.columns, section.unit, section.period, section.heading].filter((line): line is string => Boolean(line));
          opensInTable = section.columns !== undefined && section.inTable === true;
        }
        current.push(unit);
        words += countWords(unit.text);
        // Table rows close a chunk at half the target: BM25 favours short chunks, and each part of a long statement
        // then carries its title and years with fewer unrelated rows.
        if (words >= (unit.kind === 'row' ? options.targetWords / 2 : options.targetWords)) {
          emit();
          // Carry overlap only when it is small next to the target, so chunks keep advancing.
          const keep = options.overlapSentences > 0 ? current.slice(-options.overlapSentences) : [];
          const keepWords = keep.reduce((n, u) => n + countWords(u.text), 0);
          if (keepWords < options.targetWords / 2) reset(keep, keepWords);
          else reset();
        }
      }
      // A paragraph that ends on a colon and a list that follows it ("… the following four categories:", "1. Transitory
      // communications; 2. …") stay one chunk when both fit in one.
      const next = paragraphs[index + 1] ?? [];
      const leadsIn = /:\s*$/.test(current.at(-1)?.text ?? '') && LIST_ITEM.test(next[0]?.text ?? '')
        && words + next.reduce((n, u) => n + countWords(u.text), 0) <= options.targetWords;
      if (!leadsIn && words - carriedWords(current, carried) >= options.targetWords / 4) {
        emit();
        reset();
      } else if (carried > 0 && current.length === carried) {
        // Only overlap is left at the paragraph's end: it belongs to the chunk already emitted.
        reset();
      }
    }
    emit();
    return chunks;
  };
  return Object.assign(chunkPage, { position: (): ChunkerPosition => ({ ordinal, section: definedOnly(section) }) });
}

/** Chunks one page after another; `position()` is where it stands after the pages so far, to go on from there. */
export type PageChunker = ((page: ExtractedPage) => DraftChunk[]) & { position(): ChunkerPosition };

/** Where chunking stands between pages: the next chunk's ordinal, and the section carried to the next page. */
export interface ChunkerPosition {
  ordinal: number;
  section: ChunkSection;
}

function definedOnly(section: ChunkSection): ChunkSection {
  return Object.fromEntries(Object.entries(section).filter(([, value]) => value !== undefined));
}

/**
 * The line a chunk that opens inside the table of the chunk before it starts with: what the chunk's text carries
 * into the indexes, so that its reading can join the two (core/rag/context.ts takes it off and says so in
 * ContextPassage.continues). An abbreviation, as a printed report writes it: "continued" would match "continuing".
 */
export const CONTINUED = '(cont.)';

/** Whether a chunk's text opens inside the table of the chunk before it: its first line is the mark. */
export function opensContinued(text: string): boolean {
  return text.startsWith(`${CONTINUED}\n`);
}

/** A chunk's text without the mark of a continued table: the text its reading and its quotes see. */
export function withoutContinuedMark(text: string): string {
  return opensContinued(text) ? text.slice(CONTINUED.length + 1) : text;
}

/**
 * The passages as their tables read: one that continues another's table (ContextPassage.continues) is joined to it,
 * in order (`run`), and read as the first one's text; the others as they are.
 */
export function tableTexts<P extends { ref: string; text: string; continues?: string }>(passages: readonly P[]): Array<{ passage: P; text: string; run: P[] }> {
  const refs = new Set(passages.map((p) => p.ref));
  const joined = (p: P) => p.continues !== undefined && refs.has(p.continues);
  const next = new Map(passages.filter(joined).map((p) => [p.continues!, p]));
  return passages.filter((p) => !joined(p)).map((passage) => {
    const run = [passage];
    for (let p = next.get(passage.ref); p && !run.includes(p); p = next.get(p.ref)) run.push(p);
    return { passage, text: joinedContinuation(run.map((p) => p.text)), run };
  });
}

/**
 * A table's text continued across passages: the first passage's, then each next one's without the lines it repeats
 * from the one before at its start (its title, the column header, the unit, the row it overlaps).
 */
export function joinedContinuation(texts: readonly string[]): string {
  return texts.reduce((joined, text) => {
    const seen = new Set(joined.split('\n'));
    const lines = text.split('\n');
    let start = 0;
    while (start < lines.length - 1 && seen.has(lines[start])) start++;
    return `${joined}\n${lines.slice(start).join('\n')}`;
  });
}

/** The start of a list's item: "1." or "2)", "(a)", or a bullet. */
const LIST_ITEM = /^(?:\(?\d{1,2}[.)]|\([a-z]\)|[•●▪◦·∙‣⁃*–-])\s/;

/** What a table of contents is titled, in the languages of the corpus and their neighbours. */
const CONTENTS_TITLE = /^(?:(?:table of )?contents|inhalt|inhaltsverzeichnis|table des matières|sommaire|índice|indice)$/i;

/** A page without a table takes at most this many headings, its first run of them, as its title. */
const MAX_TITLE_HEADINGS = 4;
/**
 * A page with a table takes at most this many of the headings above it, the first: a form's sidebar of headings
 * (shared/data/pdfs/irs-i1040nr-2007.pdf, page 2: 15) would otherwise open each of the page's chunks. On the
 * quality bench's tune documents (bench/quality.ts) 6 changes no figure.
 */
const MAX_TABLE_TITLE_HEADINGS = 6;

/**
 * The page's title, joined ("Acme Company … Population by Region"; one per line when too long for a heading), and
 * the heading it opens with: the first headings above the page's first table row or column header; on a page without
 * a table, its first run of headings. Every heading of such a page would make one long "title" of a leaflet's
 * sub-headings and address lines, repeated atop each of its chunks and quoted from there.
 */
function pageTitle(units: TextUnit[]): { text: string; opening: TextUnit } | undefined {
  const firstTable = units.findIndex((u) => u.kind === 'row' || u.kind === 'columns');
  let headings: TextUnit[];
  if (firstTable >= 0) headings = units.slice(0, firstTable).filter((u) => u.kind === 'heading' && !isItemLine(u.text)).slice(0, MAX_TABLE_TITLE_HEADINGS);
  else {
    const start = units.findIndex((u) => u.kind === 'heading');
    const end = units.findIndex((u, i) => i > start && u.kind !== 'heading');
    headings = start < 0 ? [] : units.slice(start, end < 0 ? units.length : end).filter((u) => !isItemLine(u.text)).slice(0, MAX_TITLE_HEADINGS);
  }
  if (headings.length === 0) return undefined;
  // A table of contents titles only itself: atop the pages after it, "Contents" would be every chunk's first word.
  if (CONTENTS_TITLE.test(headings[0].text)) return { text: '', opening: headings[0] };
  // Joined, they must still read as a heading: a longer line would read as the opening words of the chunk's first
  // sentence ("… Boeing Special Attention Service Costs of Compliance The FAA estimates …"). Then one per line.
  const joined = headings.map((u) => u.text).join(' ');
  return { text: isHeading(joined) ? joined : headings.map((u) => u.text).join('\n'), opening: headings[0] };
}

/**
 * A line in capitals that ends on an amount ("FERRERO KINDER RIEGEL 1,99 C") or a number of three digits or more that
 * is not a year ("HARIBO GOLDBAREN 1196"), perhaps followed by a short code (a receipt's VAT class, OCR debris): an
 * item of a list such as a receipt's, which reads as a heading but titles nothing. Repeated atop every chunk of a
 * photographed receipt, such lines were quoted as its title. "Annual Report 2019", "Note 12" and "Pub. 525 Taxable
 * Income" stay titles.
 */
function isItemLine(line: string): boolean {
  const words = line.split(' ');
  if (words.length > 2 && words.at(-1)!.length <= 2 && !/^\d+$/.test(words.at(-1)!)) words.pop();
  const last = words.at(-1)!.replace(/[,;:.]+$/, '');
  if (/^\d+[.,]\d{2}$/.test(last)) return true;
  return /^\d[\d.,]*$/.test(last) && last.replace(/\D/g, '').length >= 3 && !/^(?:19|20)\d{2}$/.test(last);
}

/**
 * The context lines the units do not already hold, then the units: rows and headings on lines of their own. A chunk
 * that continues a table opens with a line saying so (CONTINUED).
 */
function render(context: string[], units: TextUnit[], continued = false): string {
  const own = units.map((u) => u.text).join(' ');
  const lines = context.filter((line) => !own.includes(line.replace(/\n/g, ' ')));
  if (continued) lines.unshift(CONTINUED);
  let text = lines.join('\n');
  units.forEach((unit, i) => {
    if (text === '') text = unit.text;
    else text += unit.kind === 'sentence' && i > 0 && units[i - 1].kind === 'sentence' ? ` ${unit.text}` : `\n${unit.text}`;
  });
  return text;
}

/**
 * A short line that is no sentence: within a table, a row without figures ("Other fees — —") or a section's label,
 * with its colon too ("Services:"); a line that leads into what follows ("… as follows:") is prose.
 */
function inTableLine(unit: TextUnit): boolean {
  if (unit.kind === 'columns' || countWords(unit.text) > 8 || /[.!?]$/.test(unit.text)) return false;
  return !unit.text.endsWith(':') || (countWords(unit.text) <= 6 && !LEADS_IN.test(unit.text));
}

/** Words of a line that introduces a list or a table rather than naming a section of one. */
const LEADS_IN = /\b(?:follows|following|below|include|includes|included|are|is|were|was)\b/i;

/** A short line that names a unit and says nothing else ("(In millions)", "$ in thousands", "£m"). */
function isUnitLine(text: string): boolean {
  return countWords(text) <= 5 && tableUnitOf([text]) !== undefined && !/\d{2}/.test(text);
}

function carriedWords(current: TextUnit[], carried: number): number {
  return current.slice(0, carried).reduce((n, u) => n + countWords(u.text), 0);
}

/** Tables and OCR output can produce "sentences" of hundreds of words: cut them into target-sized pieces. */
function splitLongSentences(units: TextUnit[], targetWords: number): TextUnit[] {
  const out: TextUnit[] = [];
  for (const unit of units) {
    const words = unit.text.split(' ');
    if (words.length <= targetWords) {
      out.push(unit);
      continue;
    }
    for (let i = 0; i < words.length; i += targetWords) out.push({ kind: 'sentence', text: words.slice(i, i + targetWords).join(' ') });
  }
  return out;
}
