/**
 * Running headers and footers ("Copyright Office Summary … Page 5") repeat on most pages and glue themselves to the
 * first and last sentences of every page. A line among the first or last three of a page whose shape (digits masked)
 * recurs on at least half the pages of its window, and on three or more, is dropped; so is such a line of two words or
 * more that is no sentence wherever it stands on a page after the first: the reading order puts a footer under the
 * column above it, mid-text ("… 3 years from the / Instructions for Form 1040NR / date the return was due …"). Three
 * lines, not two: a page may end on a printer's line, a typist's line and then a figure's tag of its own ("VerDate …" /
 * "jbell on DSKJ…" / "EP06AU20.010</GPH>"). A page number at either end of the line is left out of its shape: facing
 * pages print it on their outer edges ("47700 Federal Register / Vol. 85 …" on the left, "Federal Register / Vol. 85
 * … 47701" on the right), and each form alone is on only half the pages.
 *
 * The window is the whole document up to 2 × HALF_WINDOW + 1 pages; a longer document is judged in windows of that
 * size around each page (a merged file changes its headers from one report to the next), so pages can be passed on
 * while later ones are still being read, HALF_WINDOW pages behind the reading.
 */
export const HALF_WINDOW = 250;
/** How many non-empty lines at either end of a page may be a running header or footer. */
const EDGE_LINES = 3;
/** On the first page, two: its third line is often the document's title, which the running header repeats. */
const FIRST_PAGE_EDGE_LINES = 2;

type Shapes = Set<string>;

/** A page's lines as running headers are judged: each line's shape ('' for a line that cannot be one), the edges'. */
interface PageShapes {
  lines: string[];
  edges: Set<number>;
  /** The shapes counted over the window: the edge lines', and the title-like lines' anywhere. */
  counted: Shapes;
}

const RELEASED: PageShapes = { lines: [], edges: new Set(), counted: new Set() };

export class RunningHeaderRemover {
  private readonly texts: string[] = [];
  private readonly shapes: PageShapes[] = [];
  /** Shape counts over the window of pages [windowStart, windowEnd). */
  private readonly counts = new Map<string, number>();
  private windowStart = 0;
  private windowEnd = 0;
  /** Pages before this one were passed on (and their text released). */
  private released = 0;

  constructor(
    private readonly onPages: (texts: string[], first: number) => void,
    private readonly halfWindow = HALF_WINDOW,
  ) {}

  /** Adds the next page's text; passes on every page whose window is now complete. */
  push(text: string): void {
    this.texts.push(text);
    this.shapes.push(pageShapes(text, this.texts.length === 1 ? FIRST_PAGE_EDGE_LINES : EDGE_LINES));
    // A page's window is complete once halfWindow pages after it are known, or the first full window for the start.
    const ready = this.texts.length - 1 - this.halfWindow;
    if (ready >= this.released && this.texts.length >= this.windowSize) this.releaseUpTo(ready + 1, this.texts.length);
  }

  /** The document is read to its end: passes on the remaining pages. */
  end(): void {
    this.releaseUpTo(this.texts.length, this.texts.length);
  }

  private get windowSize(): number {
    return 2 * this.halfWindow + 1;
  }

  private releaseUpTo(end: number, known: number): void {
    const cleaned: string[] = [];
    const first = this.released;
    for (let i = this.released; i < end; i++) {
      const start = Math.max(0, Math.min(i - this.halfWindow, known - this.windowSize));
      this.moveWindow(start, Math.min(known, start + this.windowSize));
      cleaned.push(this.clean(i));
      this.texts[i] = ''; // passed on: the caller holds it now
    }
    this.released = end;
    if (cleaned.length > 0) this.onPages(cleaned, first);
  }

  private moveWindow(start: number, end: number): void {
    for (; this.windowEnd < end; this.windowEnd++) for (const s of this.shapes[this.windowEnd].counted) this.counts.set(s, (this.counts.get(s) ?? 0) + 1);
    for (; this.windowStart < start; this.windowStart++) {
      for (const s of this.shapes[this.windowStart].counted) {
        const n = this.counts.get(s)! - 1;
        if (n === 0) this.counts.delete(s);
        else this.counts.set(s, n);
      }
      // Behind every window still to come: a long document holds only its window's shapes.
      this.shapes[this.windowStart] = RELEASED;
    }
  }

  private clean(i: number): string {
    const text = this.texts[i];
    const pages = this.windowEnd - this.windowStart;
    if (pages < 3) return text;
    const repeated = (s: string) => {
      const n = this.counts.get(s) ?? 0;
      return n >= 3 && n >= pages / 2;
    };
    const { lines: shapes, edges, counted } = this.shapes[i];
    if (![...counted].some(repeated)) return text;
    // Anywhere on a page but the first (where such a line is the document's title): the reading order puts a footer
    // under the column it sits beneath, mid-text.
    const dropped = (j: number) => shapes[j] !== '' && (edges.has(j) || (i > 0 && isTitleShape(shapes[j]))) && repeated(shapes[j]);
    const kept = text.split('\n').filter((_, j) => !dropped(j)).join('\n').trim();
    // A page made only of "repeated" lines is a form or a table, not headers: keep it whole.
    return kept === '' ? text : kept;
  }
}

/** Every page's text with running headers and footers removed (see RunningHeaderRemover). */
export function removeRunningHeaders(pages: string[], halfWindow = HALF_WINDOW): string[] {
  const cleaned: string[] = [];
  const remover = new RunningHeaderRemover((texts) => cleaned.push(...texts), halfWindow);
  for (const text of pages) remover.push(text);
  remover.end();
  return cleaned;
}

function shape(line: string): string {
  let masked = line.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  // A line of words keeps them without its page number; a bare page number ("#") stays what it is.
  if (!/\p{L}/u.test(masked)) return masked;
  if (masked.startsWith('# ')) masked = masked.slice(2);
  return masked.endsWith(' #') ? masked.slice(0, -2) : masked;
}

/** Longer lines inside a page are text, not a running title (the edges' are judged whatever their length). */
const MAX_INNER_TITLE_CHARS = 60;

/** A page's lines' shapes (computed once: a long document has thousands of pages), its edges and what is counted. */
function pageShapes(text: string, edgeLines: number): PageShapes {
  const raw = text.split('\n');
  const nonEmpty = raw.map((l, j) => (l.trim() ? j : -1)).filter((j) => j >= 0);
  const edges = new Set([...nonEmpty.slice(0, edgeLines), ...nonEmpty.slice(-edgeLines)]);
  const lines = raw.map((line, j) => {
    if (edges.has(j)) return shape(line);
    const trimmed = line.trim();
    return trimmed.length <= MAX_INNER_TITLE_CHARS && trimmed.includes(' ') && !/[.!?]["”’)]?$/.test(trimmed) ? shape(line) : '';
  });
  const counted = new Set(lines.filter((s, j) => s !== '' && (edges.has(j) || isTitleShape(s))));
  return { lines, edges, counted };
}

/** A line of two words or more, no sentence: a running title, found wherever the reading order put it. */
function isTitleShape(s: string): boolean {
  return s.includes(' ') && /\p{L}/u.test(s) && !/[.!?]$/.test(s);
}
