import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The real-document corpus (pdfs/, images/, squad/), read-only: DOC_CHAT_CORPUS when set (a relative path counts from
 * the current directory), else ../shared/data beside the repository. Tests and benches only: the service never reads it.
 */
export const CORPUS_DIR = process.env.DOC_CHAT_CORPUS
  ? path.resolve(process.env.DOC_CHAT_CORPUS)
  : path.resolve(REPO_ROOT, '../shared/data');

/** An explicit DOC_CHAT_CORPUS that does not exist means "no corpus", never a fall back to the default. */
export const CORPUS_AVAILABLE = fs.statSync(CORPUS_DIR, { throwIfNoEntry: false })?.isDirectory() ?? false;

export const CORPUS_MISSING = `corpus not found at ${CORPUS_DIR}: set DOC_CHAT_CORPUS or put ../shared/data beside the repo`;

/** Absolute path of a corpus file, e.g. corpusPath('pdfs/dmca-summary-1998.pdf'). */
export function corpusPath(relativePath: string): string {
  return path.join(CORPUS_DIR, relativePath);
}

/** For scripts (benches) that cannot run without the corpus: a clear message and exit code 2. */
export function exitUnlessCorpus(what: string): void {
  if (CORPUS_AVAILABLE) return;
  console.error(`${what} needs the real-document corpus: ${CORPUS_MISSING}`);
  process.exit(2);
}
