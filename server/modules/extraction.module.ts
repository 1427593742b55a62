import { ContainerModule } from 'inversify';
import * as v from 'valibot';
import type { DocumentReader } from '../../core/ports/document-reader.js';
import {
  ChildProcessDocumentReader, DEFAULT_EXTRACTION_NICENESS, DEFAULT_RANGE_PAGES, DEFAULT_EXTRACTION_SETTINGS, DEFAULT_PROCESS_LIMITS,
  PDF_READERS, type PdfReaderName, EXTRACTION_SCHEDULING, DEFAULT_EXTRACTION_SCHEDULING, type ExtractionScheduling,
} from '../../adapters/extraction/index.js';
import { instrumentReader, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { optional, setting } from '../config/variables.js';
import { oneOf, positiveInt, wholeNumber } from '../config/schemas.js';
import { ChildProcessPageRenderer } from '../../adapters/extraction/child-process-page-renderer.js';
import type { PageRenderer } from '../../core/ports/page-renderer.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';
import { INGEST_CONCURRENCY } from './ingestion.module.js';

const EXTRACTION_WORKERS = optional('EXTRACTION_WORKERS', positiveInt(16), 'Extraction child processes', { defaultText: 'INGEST_CONCURRENCY' });
const EXTRACTION_NICENESS = setting('EXTRACTION_NICENESS', wholeNumber(19), DEFAULT_EXTRACTION_NICENESS, 'How much nicer (0-19) extraction processes run than the service, so API requests go first');
const EXTRACTION_SCHEDULING_SETTING = setting('EXTRACTION_SCHEDULING', oneOf(EXTRACTION_SCHEDULING), DEFAULT_EXTRACTION_SCHEDULING, 'nice: EXTRACTION_NICENESS alone; idle: extraction processes also run under Linux\'s SCHED_IDLE policy (chrt), so a request never waits for them, but a load filling every core leaves them almost no CPU');
const EXTRACTION_RANGE_PAGES = setting('EXTRACTION_RANGE_PAGES', positiveInt(1_000_000), DEFAULT_RANGE_PAGES, 'A PDF with more pages is read in ranges of this many pages by all extraction processes at once');
const MAX_DOCUMENT_PAGES = setting('MAX_DOCUMENT_PAGES', positiveInt(1_000_000), DEFAULT_EXTRACTION_SETTINGS.maxPages, 'Pages a document may have; a longer one fails');
const MAX_OCR_PAGES = setting('MAX_OCR_PAGES', positiveInt(1_000_000), DEFAULT_EXTRACTION_SETTINGS.maxOcrPages, 'Pages of a document that are OCR\'d; the rest of its scanned pages are skipped');
const EXTRACTION_PAGE_TIMEOUT_MS = setting('EXTRACTION_PAGE_TIMEOUT_MS', positiveInt(86_400_000), DEFAULT_PROCESS_LIMITS.pageTimeoutMs, 'Longest time one page may take');
const EXTRACTION_MS_PER_PAGE = setting('EXTRACTION_MS_PER_PAGE', positiveInt(3_600_000), DEFAULT_PROCESS_LIMITS.msPerPage, 'Time budget per page of a whole document');
const PDF_MAX_IMAGE_PIXELS = setting('PDF_MAX_IMAGE_PIXELS', positiveInt(1_000_000_000), DEFAULT_EXTRACTION_SETTINGS.maxPdfImagePixels, 'Largest image in a PDF that is decoded');
const EXTRACTION_MAX_MEMORY_MB = setting('EXTRACTION_MAX_MEMORY_MB', v.pipe(positiveInt(65_536), v.minValue(128, 'must be at least 128')), DEFAULT_PROCESS_LIMITS.maxMemoryMb, 'Heap limit of one extraction process');
const EXTRACTION_RECYCLE_PAGES = setting('EXTRACTION_RECYCLE_PAGES', positiveInt(10_000_000), DEFAULT_PROCESS_LIMITS.recycleAfterPages, 'Pages after which an extraction process is replaced');
const PDF_READER = setting('PDF_READER', oneOf(PDF_READERS), DEFAULT_EXTRACTION_SETTINGS.pdfReader, 'Library that reads PDFs and draws their page images: pdfium (PDFium, WebAssembly) or pdfjs (pdf.js, JavaScript)');
const MAX_SHEET_ROWS = setting('MAX_SHEET_ROWS', positiveInt(10_000_000), DEFAULT_EXTRACTION_SETTINGS.maxSheetRows, 'Rows an Excel workbook or CSV file may have; a longer one fails');
const MAX_UNPACKED_MB = setting('MAX_UNPACKED_MB', positiveInt(65_536), DEFAULT_EXTRACTION_SETTINGS.maxUnpackedBytes / 1_048_576, 'Megabytes the parts of a Word, Excel or PowerPoint file may unpack to; more fails (a zip bomb)');
const EXTRACTION_IDLE_MS = setting('EXTRACTION_IDLE_MS', positiveInt(86_400_000), DEFAULT_PROCESS_LIMITS.idleMs, 'Idle time after which an extraction process exits');

export interface ExtractionLimits {
  maxPages: number;
  maxOcrPages: number;
  pageTimeoutMs: number;
  msPerPage: number;
  maxPdfImagePixels: number;
  maxMemoryMb: number;
  recycleAfterPages: number;
  idleMs: number;
  pdfReader: PdfReaderName;
  maxSheetRows: number;
  maxUnpackedBytes: number;
}

export interface ExtractionSection {
  /** Default: INGEST_CONCURRENCY, so a document that starts is extracted at once, not behind another user's. */
  extractionWorkers: number;
  /** How much nicer (lower CPU priority, 0-19) extraction processes run than the service: API requests go first. */
  extractionNiceness: number;
  /** Whether extraction processes also take Linux's idle scheduling policy (a woken request thread preempts them at once). */
  extractionScheduling: ExtractionScheduling;
  /** A longer PDF is read as page ranges of this many pages by every free extraction process. */
  extractionRangePages: number;
  /** Limits of document extraction; a document that hits one fails with a reason naming it (or loses OCR'd pages). */
  extraction: ExtractionLimits;
}

/** Text extraction from PDFs and page images, in a pool of child processes with limits on time, memory and pages. */
export const extractionModule: ServiceModule<ExtractionSection> = {
  family: 'extraction',
  variables: [EXTRACTION_WORKERS, EXTRACTION_NICENESS, EXTRACTION_SCHEDULING_SETTING, EXTRACTION_RANGE_PAGES, MAX_DOCUMENT_PAGES, MAX_OCR_PAGES, EXTRACTION_PAGE_TIMEOUT_MS,
    EXTRACTION_MS_PER_PAGE, PDF_MAX_IMAGE_PIXELS, EXTRACTION_MAX_MEMORY_MB, EXTRACTION_RECYCLE_PAGES, EXTRACTION_IDLE_MS, PDF_READER, MAX_SHEET_ROWS, MAX_UNPACKED_MB],
  configure(env): ExtractionSection {
    return {
      // As many extraction processes as documents in progress: with fewer, a second user's document would wait for the
      // first one's extraction after all, which is what fair scheduling is meant to prevent.
      extractionWorkers: env.read(EXTRACTION_WORKERS, env.read(INGEST_CONCURRENCY)),
      extractionNiceness: env.read(EXTRACTION_NICENESS),
      extractionScheduling: env.read(EXTRACTION_SCHEDULING_SETTING),
      extractionRangePages: env.read(EXTRACTION_RANGE_PAGES),
      extraction: {
        maxPages: env.read(MAX_DOCUMENT_PAGES),
        maxOcrPages: env.read(MAX_OCR_PAGES),
        pageTimeoutMs: env.read(EXTRACTION_PAGE_TIMEOUT_MS),
        msPerPage: env.read(EXTRACTION_MS_PER_PAGE),
        maxPdfImagePixels: env.read(PDF_MAX_IMAGE_PIXELS),
        maxMemoryMb: env.read(EXTRACTION_MAX_MEMORY_MB),
        recycleAfterPages: env.read(EXTRACTION_RECYCLE_PAGES),
        idleMs: env.read(EXTRACTION_IDLE_MS),
        pdfReader: env.read(PDF_READER),
        maxSheetRows: env.read(MAX_SHEET_ROWS),
        maxUnpackedBytes: env.read(MAX_UNPACKED_MB) * 1_048_576,
      },
    };
  },
  bindings: (config) =>
    new ContainerModule(({ bind }) => {
      const reader = new ChildProcessDocumentReader({
        poolSize: config.extractionWorkers, niceness: config.extractionNiceness, scheduling: config.extractionScheduling, rangePages: config.extractionRangePages, ...config.extraction,
      });
      bind<DocumentReader>(TOKENS.DocumentReader).toDynamicValue((ctx) => instrumentReader(reader, ctx.get<ServiceMetrics>(TOKENS.Metrics)));
      bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'text extraction', close: () => reader.close() });
      // Page images in a child process of their own, started at the first page asked for: viewing a page never waits
      // behind an ingestion.
      const renderer = new ChildProcessPageRenderer({ pdfReader: config.extraction.pdfReader });
      bind<PageRenderer>(TOKENS.PageRenderer).toConstantValue(renderer);
      bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'page images', close: () => renderer.close() });
    }),
};
