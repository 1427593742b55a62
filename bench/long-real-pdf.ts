/**
 * The long real PDF of issue 18: the FinanceBench filings merged with qpdf into one file (cached in the OS temp folder),
 * as a user with a year of annual reports would upload it in one go.
 *
 * Which filings: all 30 (tune and held-out). The tune part alone is 1,459 pages, too short to see a cost that grows
 * with length over several 1,000-page windows; this bench reads no question or answer, it only times text
 * extraction, so using the held-out filings here looks at nothing the quality benches hold out. The 30 filings
 * (3,097 pages) are merged `copies` times over (default 2: 6,194 pages, ~58 MB); every copy is merged from a file of
 * its own name, so qpdf copies its objects instead of sharing the first copy's fonts and images.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_CACHE_DIR } from './bench-pdfs.js';
import { FINANCEBENCH_DIR } from './financebench-data.js';

export interface LongRealPdf {
  file: string;
  pages: number;
  filings: string[];
}

/** Why the long real PDF cannot be built here (no corpus, no qpdf), or undefined when it can. */
export function longRealPdfUnavailable(): string | undefined {
  if (!fs.existsSync(path.join(FINANCEBENCH_DIR, 'pdfs'))) return `the FinanceBench filings are not at ${FINANCEBENCH_DIR}/pdfs`;
  if (spawnSync('qpdf', ['--version']).status !== 0) return 'qpdf is not installed (apt-get install qpdf)';
  return undefined;
}

/** The separate filings, in name order. */
export function filingFiles(): string[] {
  const dir = path.join(FINANCEBENCH_DIR, 'pdfs');
  return fs.readdirSync(dir).filter((name) => name.endsWith('.pdf')).sort().map((name) => path.join(dir, name));
}

export function pageCount(file: string): number {
  const result = spawnSync('qpdf', ['--show-npages', file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`qpdf --show-npages ${file}: ${result.stderr}`);
  return Number(result.stdout.trim());
}

function qpdf(args: string[]): void {
  const result = spawnSync('qpdf', args, { encoding: 'utf8' });
  // Exit code 3: warnings only (some filings have small damage qpdf repairs), the output is written.
  if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf ${args.join(' ')}: ${result.stderr}`);
}

/** Merges the filings `copies` times into one PDF (built once, then reused from the cache folder). */
export function longRealPdf(copies = Number(process.env.LONG_PDF_COPIES ?? 2)): LongRealPdf {
  const filings = filingFiles();
  const file = path.join(BENCH_CACHE_DIR, `financebench-merged-x${copies}.pdf`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(BENCH_CACHE_DIR, { recursive: true });
    const once = path.join(BENCH_CACHE_DIR, 'financebench-merged-x1.pdf');
    if (!fs.existsSync(once)) qpdf(['--empty', '--pages', ...filings, '--', `${once}.part`]), fs.renameSync(`${once}.part`, once);
    if (copies > 1) {
      const parts = Array.from({ length: copies }, (_, i) => {
        const copy = path.join(BENCH_CACHE_DIR, `financebench-merged-copy-${i}.pdf`);
        fs.copyFileSync(once, copy);
        return copy;
      });
      qpdf(['--empty', '--pages', ...parts, '--', `${file}.part`]);
      fs.renameSync(`${file}.part`, file);
      for (const part of parts) fs.rmSync(part, { force: true });
    }
  }
  return { file, pages: pageCount(file), filings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const why = longRealPdfUnavailable();
  if (why) console.log(`skipped: ${why}`);
  else {
    const pdf = longRealPdf();
    console.log(`${pdf.file}: ${pdf.pages} pages, ${(fs.statSync(pdf.file).size / 1024 / 1024).toFixed(1)} MB`);
  }
}
