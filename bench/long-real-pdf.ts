/**
 * The long real PDF of issue 18: the FinanceBench filings merged with qpdf into one file (cached in the OS temp folder),
 * as a user with a year of annual reports would upload it in one go.
 *
 * Which filings: all 30 (tune and held-out), then the tune ones again. The tune part alone is 1,459 pages, too short
 * to see a cost that grows with length over several 1,000-page windows; this bench reads no question or answer, it
 * only times text extraction, so using the held-out filings here looks at nothing the quality benches hold out.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_CACHE_DIR } from './bench-pdfs.js';
import { FINANCEBENCH_DIR, FINANCEBENCH_SPLIT, readFinanceQuestions } from './financebench-data.js';

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

/** The service's upload limit (MAX_FILE_SIZE, 50 MiB): the long PDF must stay under it. */
const UPLOAD_LIMIT_BYTES = 52_428_800;

/**
 * All filings, then the tune part's filings once more (merged from a file of another name, so qpdf copies their
 * objects instead of sharing them): 4,556 pages, ~40 MB, under the 50 MiB upload limit (all filings twice, 6,194
 * pages, are 53 MB). Built once, then reused from the cache folder.
 */
export function longRealPdf(): LongRealPdf {
  const filings = filingFiles();
  const file = path.join(BENCH_CACHE_DIR, 'financebench-all-then-tune.pdf');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(BENCH_CACHE_DIR, { recursive: true });
    const tune = new Set<string>(FINANCEBENCH_SPLIT.tune);
    const companyOf = new Map(readAllQuestions().map((q) => [q.doc, q.company]));
    const tuneFilings = filings.filter((filing) => tune.has(companyOf.get(path.basename(filing)) ?? ''));
    const all = path.join(BENCH_CACHE_DIR, 'financebench-all.pdf');
    const again = path.join(BENCH_CACHE_DIR, 'financebench-tune-again.pdf');
    qpdf(['--empty', '--pages', ...filings, '--', all]);
    qpdf(['--empty', '--pages', ...tuneFilings, '--', again]);
    qpdf(['--empty', '--pages', all, again, '--', `${file}.part`]);
    fs.renameSync(`${file}.part`, file);
    fs.rmSync(all, { force: true });
    fs.rmSync(again, { force: true });
  }
  if (fs.statSync(file).size > UPLOAD_LIMIT_BYTES) throw new Error(`${file} is larger than the upload limit`);
  return { file, pages: pageCount(file), filings };
}

/** Every question of the set (tune and held-out): only their document → company pairs are used here. */
function readAllQuestions(): { doc: string; company: string }[] {
  return [...readFinanceQuestions('tune'), ...readFinanceQuestions('heldout')];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const why = longRealPdfUnavailable();
  if (why) console.log(`skipped: ${why}`);
  else {
    const pdf = longRealPdf();
    console.log(`${pdf.file}: ${pdf.pages} pages, ${(fs.statSync(pdf.file).size / 1024 / 1024).toFixed(1)} MB`);
  }
}
