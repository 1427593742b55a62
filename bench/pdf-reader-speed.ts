/**
 * Issue 18, point 3: the two PDF readers (PDF_READER=pdfjs|pdfium) on the long real PDF (bench/long-real-pdf.ts), each
 * in its own process built like an extraction child (bench/extraction-profile.ts bundled to plain JS, the child's heap
 * cap, --expose-gc, the same clean-up policy, OCR of pages without text): pages/s, CPU seconds, peak RSS and, for
 * PDFium, its WebAssembly memory (which grows and never shrinks). One reader after the other, never both at once.
 *   npx tsx bench/pdf-reader-speed.ts            (LONG_READER_PAGES=N reads only the first N pages)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { DEFAULT_PROCESS_LIMITS } from '../adapters/extraction/child-process-document-reader.js';
import { PDF_READERS } from '../adapters/extraction/pdf-page-source.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { longRealPdf, longRealPdfUnavailable } from './long-real-pdf.js';

async function main(): Promise<void> {
  const why = longRealPdfUnavailable();
  if (why) {
    console.log(`PDF reader speed: skipped (${why})`);
    return;
  }
  const { file, pages } = longRealPdf();
  const maxPages = process.env.LONG_READER_PAGES ?? String(pages);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-reader-speed-'));
  try {
    // Bundled as the child runs (under tsx its source maps alone hold ~150 MB of heap); packages stay in node_modules.
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const script = path.join(dir, 'profile.mjs');
    await build({ entryPoints: [path.join(REPO_ROOT, 'bench/extraction-profile.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: script, logLevel: 'error' });
    console.log(`${path.basename(file)}: ${pages} pages, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB; reading ${maxPages} pages with each reader`);
    for (const reader of PDF_READERS) {
      const run = spawnSync(process.execPath, [`--max-old-space-size=${DEFAULT_PROCESS_LIMITS.maxMemoryMb}`, '--expose-gc', script, file, maxPages, '1000'], {
        env: { ...process.env, PDF_READER: reader },
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      if (run.status !== 0) throw new Error(`${reader} failed: ${run.stderr}`);
      console.log(run.stdout.trim().split('\n').map((line) => `  ${line}`).join('\n'));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
