export {
  ChildProcessDocumentReader,
  DEFAULT_EXTRACTION_SETTINGS,
  DEFAULT_EXTRACTION_NICENESS,
  DEFAULT_PROCESS_LIMITS,
  DEFAULT_RANGE_PAGES,
  type ChildProcessDocumentReaderOptions,
} from './child-process-document-reader.js';
export { ExtractionMemoryLimitError, ExtractionTimeoutError, ExtractionWorkerCrashedError, LIMIT_VARIABLES } from './errors.js';
export type { ExtractionSettings } from './document-extractor.js';
export type { ProcessLimits } from './extraction-process.js';
export { ChildProcessPageRenderer, type PageRendererOptions } from './child-process-page-renderer.js';
export { PDF_READERS, type PdfReaderName } from './pdf-page-source.js';
export { DEFAULT_EXTRACTION_SCHEDULING, EXTRACTION_SCHEDULING, type ExtractionScheduling } from './background-priority.js';
