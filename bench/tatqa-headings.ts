/**
 * How well the page's geometry reads table headings (adapters/extraction/table-headings.ts), on the TAT-QA dev part's
 * tables only: each printed as bench/tatqa.ts prints it, then with figure columns narrowed (FIGURE_COLUMN) so headings
 * wrap more, and the years of the columns read back (core/rag/tables/table-grid.ts) against the years the table's own
 * header rows give each figure column. No question is asked; the validation part is never read.
 * Run: npx tsx bench/tatqa-headings.ts [widths in ems, default 5.3 4 3] [--misses]
 */
import { openPdfPageSource } from '../adapters/extraction/open-pdf-page-source.js';
import { normalizeExtractedText } from '../adapters/extraction/normalize-text.js';
import { splitUnits } from '../core/rag/layout.js';
import { readTableGrids } from '../core/rag/tables/table-grid.js';
import { exitUnlessCorpus } from '../test/support/paths.js';
import { tatqaPart } from './tatqa-data.js';
import { FIGURE_COLUMN, forPrint, headerRowCount, printedHeader, tatqaPagePdf } from './tatqa-page.js';

const args = process.argv.slice(2);
const misses = args.includes('--misses');
const widths = args.filter((a) => !a.startsWith('--')).map(Number);

/** Each figure column's year as the table's header rows give it (one year named in it), else undefined. */
function headerYears(table: string[][]): (number | undefined)[] {
  const headers = headerRowCount(table);
  const columns = Math.max(...table.map((r) => r.length));
  const figureColumns = Array.from({ length: columns }, (_, i) => i).filter((i) => i > 0 && table.slice(headers).some((r) => (r[i] ?? '') !== ''));
  return figureColumns.map((i) => {
    // A header row with one cell over the figure columns spans them all: it names no one column's year.
    const words = table.slice(0, headers).filter((r) => r.slice(1).filter(Boolean).length > 1 || columns <= 2).map((r) => r[i] ?? '').join(' ');
    const years = [...new Set(words.match(/\b(?:19|20)\d\d\b/g) ?? [])];
    return years.length === 1 ? Number(years[0]) : undefined;
  });
}

async function measure(em: number): Promise<void> {
  FIGURE_COLUMN.minWidthEm = em;
  let tables = 0;
  let right = 0;
  let wrapped = 0;
  let wrappedRight = 0;
  const missed: string[] = [];
  for (const context of tatqaPart('dev')) {
    const table = context.table.table.map((row) => row.map(forPrint));
    const gold = headerYears(table);
    if (gold.every((y) => y === undefined)) continue;
    const pdf = await openPdfPageSource('pdfium', await tatqaPagePdf(context), { maxPdfImagePixels: 1e8 });
    let text = '';
    for (let p = 1; p <= pdf.pageCount; p++) text += `${normalizeExtractedText(await pdf.text(p))}\n`;
    await pdf.close();
    // The page's table: the grid holding most of the table's row labels.
    const labels = new Set(table.slice(headerRowCount(table)).map((r) => r[0]));
    const grid = readTableGrids(splitUnits(text)).sort((a, b) => b.rows.filter((r) => labels.has(r.label)).length - a.rows.filter((r) => labels.has(r.label)).length)[0];
    const read = grid ? grid.columns.map((c) => c.year) : [];
    const good = JSON.stringify(read.slice(0, gold.length)) === JSON.stringify(gold);
    const wraps = (await printedHeader(context.table.table)).wraps;
    tables++;
    right += good ? 1 : 0;
    wrapped += wraps ? 1 : 0;
    wrappedRight += wraps && good ? 1 : 0;
    if (!good) missed.push(`  ${context.table.uid.slice(0, 8)} header rows' years ${JSON.stringify(gold)}, read ${JSON.stringify(read)}: ${grid?.header ?? '(no header read)'}`);
  }
  console.log(`figure columns at least ${em} em: ${right} of ${tables} tables' column years read right; of the ${wrapped} whose headings wrap, ${wrappedRight}`);
  if (misses) console.log(missed.join('\n'));
}

exitUnlessCorpus('The TAT-QA headings bench');
for (const em of widths.length > 0 ? widths : [5.3, 4, 3]) await measure(em);
