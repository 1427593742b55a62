export {
  WorkerThreadDocumentReader,
  DEFAULT_EXTRACTION_SETTINGS,
  type WorkerThreadDocumentReaderOptions,
} from './worker-thread-document-reader.js';
export { ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
export type { ExtractionSettings } from './document-extractor.js';
