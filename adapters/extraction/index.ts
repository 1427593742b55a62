export {
  ChildProcessDocumentReader,
  DEFAULT_EXTRACTION_SETTINGS,
  type ChildProcessDocumentReaderOptions,
} from './child-process-document-reader.js';
export { ExtractionTimeoutError, ExtractionWorkerCrashedError } from './errors.js';
export type { ExtractionSettings } from './document-extractor.js';
