/**
 * Entry point of an extraction worker thread (started by WorkerThreadDocumentReader). Handles one job at a time:
 * the pool never sends a second job before the first one is answered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { DocumentExtractor } from './document-extractor.js';
import type { ExtractionJob, WorkerReply, WorkerStartData } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('extraction-worker.ts must run in a worker thread');

const { settings } = workerData as WorkerStartData;
const extractor = new DocumentExtractor(settings);
const reply = (message: WorkerReply): void => port.postMessage(message);

port.on('message', async ({ id, kind, bytes }: ExtractionJob) => {
  let reported = -1; // so that 0 ("started") is sent too
  const onProgress = (fraction: number): void => {
    // Throttled: OCR reports progress very often, the reader only needs steps of about 1%.
    if (fraction >= 1 || fraction - reported >= 0.01) {
      reported = fraction;
      reply({ id, type: 'progress', fraction: Math.min(1, fraction) });
    }
  };
  try {
    const pages = await extractor.extract(bytes, kind, onProgress);
    reply({ id, type: 'result', pages });
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    reply({
      id,
      type: 'error',
      unprocessable: error instanceof UnprocessableDocumentError,
      message: err.message,
      stack: err.stack,
    });
  }
});
