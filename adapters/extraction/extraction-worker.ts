/**
 * Entry point of an extraction child process (forked by ChildProcessDocumentReader, with an IPC channel). Handles one
 * job at a time: the pool never sends a second job before the first one is answered. Runs in its own process so that
 * a native crash (canvas, OCR) or running out of memory takes down only this process, never the server.
 */
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { DocumentExtractor } from './document-extractor.js';
import type { ExtractionJob, WorkerReply, WorkerStartData } from './protocol.js';

if (!process.send) throw new Error('extraction-worker must run as a forked child process with an IPC channel');

// Never outlive the server: the IPC channel closes when the parent exits, is killed, or closes the reader.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0); // the parent went away while this module was loading

const { settings, crashOnMarker } = JSON.parse(process.argv[2] ?? '{}') as WorkerStartData;
const extractor = new DocumentExtractor(settings);
const reply = (message: WorkerReply): void => {
  // Dropped if the parent is gone (then 'disconnect' ends this process).
  if (process.connected) process.send!(message, undefined, undefined, () => {});
};

process.on('message', async ({ id, kind, bytes: received }: ExtractionJob) => {
  // A Buffer arrives when the caller passed one; pdf.js wants a plain Uint8Array (a view, not a copy).
  const bytes = new Uint8Array(received.buffer, received.byteOffset, received.byteLength);
  if (crashOnMarker && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(crashOnMarker)) {
    process.kill(process.pid, 'SIGSEGV'); // test-only: behave like a native crash
  }
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

reply({ type: 'ready' });
