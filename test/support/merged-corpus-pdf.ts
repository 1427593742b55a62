import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusPath } from './paths.js';

/**
 * Real filings and corpus PDFs merged with qpdf into one 309-page document: four 10-K/10-Q filings, a scanned page in
 * the middle (OCR in a later range) and a short report. Long enough for several page ranges, short enough for a test.
 */
const PARTS = [
  'financebench/pdfs/NETFLIX_2017_10K.pdf', // 73 pages
  'financebench/pdfs/COSTCO_2021_10K.pdf', // 76
  'pdfs/scanned-huckfinn-p22.pdf', // 1, scanned: page 150
  'financebench/pdfs/AMAZON_2019_10K.pdf', // 83
  'financebench/pdfs/AMCOR_2023Q2_10Q.pdf', // 57
  'pdfs/dmca-summary-1998.pdf', // 18 (owner-password encrypted: qpdf writes it decrypted)
  'pdfs/scanned-linn-2col.pdf', // 1, scanned: the last page
];
export const MERGED_CORPUS_PAGES = 309;
export const MERGED_SCANNED_PAGES = [150, 309];

let merged: Uint8Array | undefined;

/** The merged PDF's bytes (built once per test process; fails clearly when qpdf is missing). */
export function mergedCorpusPdf(): Uint8Array {
  if (merged) return merged;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-merged-'));
  const file = path.join(dir, 'merged.pdf');
  try {
    const result = spawnSync('qpdf', ['--empty', '--pages', ...PARTS.map(corpusPath), '--', file], { encoding: 'utf8' });
    if (result.error) throw new Error(`qpdf is needed to build the merged test PDF (apt-get install qpdf): ${result.error.message}`);
    // Exit code 3: warnings only (qpdf repaired small damage); the file is written.
    if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf failed: ${result.stderr}`);
    merged = new Uint8Array(fs.readFileSync(file));
    return merged;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
