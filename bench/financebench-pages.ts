/**
 * For tuning only (bench/tune-financebench.ts): the extracted pages of a filing, cached in the OS temp directory
 * (never in the repo) because pdf.js takes seconds per filing and chunking/retrieval changes do not need it again.
 * The reported figures come from bench/quality.ts, which ingests every filing over HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DocumentExtractor } from '../adapters/extraction/document-extractor.js';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { removeRunningHeaders } from '../adapters/extraction/running-headers.js';
import type { ExtractedPage } from '../core/domain/model.js';
import { filingPath } from './financebench-data.js';

const CACHE_DIR = path.join(os.tmpdir(), 'financebench-pages');

/** A filing's pages as ingestion passes them on: extracted (cached), then their running headers and footers removed. */
export async function filingPages(doc: string, extractor: () => DocumentExtractor): Promise<ExtractedPage[]> {
  const pages = await extractedPages(doc, extractor);
  const texts = removeRunningHeaders(pages.map((page) => page.text));
  return pages.map((page, i) => ({ ...page, text: texts[i] }));
}

async function extractedPages(doc: string, extractor: () => DocumentExtractor): Promise<ExtractedPage[]> {
  const cached = path.join(CACHE_DIR, `${doc}.json`);
  if (fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, 'utf8')) as ExtractedPage[];
  const pages: ExtractedPage[] = [];
  await extractor().extract(new Uint8Array(fs.readFileSync(filingPath(doc))), 'pdf', { onPage: (page) => void pages.push(page), onProgress: () => {} });
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(cached, JSON.stringify(pages));
  return pages;
}

export function lazyExtractor(): { get: () => DocumentExtractor; close: () => Promise<void> } {
  let extractor: DocumentExtractor | undefined;
  return {
    get: () => (extractor ??= new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS)),
    close: async () => extractor?.close(),
  };
}
