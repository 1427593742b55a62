/**
 * Entry point of an extraction child process (forked by ChildProcessDocumentReader, with an IPC channel). Handles one
 * job at a time: the pool never sends a second job before the first one is answered. Runs in its own process so that
 * a native crash (canvas, OCR) or running out of memory takes down only this process, never the server.
 */
import fs from 'node:fs';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import { runInBackground } from './background-priority.js';
import { cleanupPolicy } from './cleanup-policy.js';
import { DocumentExtractor } from './document-extractor.js';
import type { AttachmentFile, ExtractionJob, OcrGrant, WorkerCommand, WorkerReply, WorkerStartData } from './protocol.js';

if (!process.send) throw new Error('extraction-worker must run as a forked child process with an IPC channel');

// Never outlive the server: the IPC channel closes when the parent exits, is killed, or closes the reader.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0); // the parent went away while this module was loading

const { settings, cleanup, niceness, scheduling, crashOnMarker } = JSON.parse(process.argv[2] ?? '{}') as WorkerStartData;
// First, so that the OCR engine's threads started later inherit it (Linux sets both per thread).
runInBackground(niceness, scheduling);
const extractor = new DocumentExtractor(settings);
const reply = (message: WorkerReply): void => {
  // Dropped if the parent is gone (then 'disconnect' ends this process).
  if (process.connected) process.send!(message, undefined, undefined, () => {});
};
const rssMb = (): number => Math.round(process.memoryUsage.rss() / 1024 / 1024);

/** Progress is sent in steps of 1%, or at least every PROGRESS_INTERVAL_MS when pages were finished meanwhile. */
const PROGRESS_INTERVAL_MS = 500;
/** Pages are sent at least this often: the server takes each message in one go, so a long one would hold its requests. */
const PAGES_PER_MESSAGE = 10;

/** How long a PDF stays open after a range, waiting for the next range of the same document. */
const KEEP_PDF_OPEN_MS = 1_000;
let dropKeptPdf: NodeJS.Timeout | undefined;

/** The answer to the running job's OCR request, awaited by its page loop. */
let awaitingGrant: { id: number; answer(granted: boolean): void } | undefined;

process.on('message', (command: WorkerCommand) => {
  if (command.type === 'ocr-grant') answerOcrRequest(command);
  else void read(command);
});

function answerOcrRequest({ id, granted }: OcrGrant): void {
  if (awaitingGrant?.id !== id) return;
  const { answer } = awaitingGrant;
  awaitingGrant = undefined;
  answer(granted);
}

async function read({ id, kind, file, firstPage, lastPage }: ExtractionJob): Promise<void> {
  let reportedFraction = -1; // so that 0 ("started") is sent too
  let fractionNow = 0;
  let reportedPages = firstPage - 1;
  let reportedAt = 0;
  let pages: ExtractedPage[] = []; // read since the last progress message
  const attachments: AttachmentFile[] = [];
  try {
    clearTimeout(dropKeptPdf);
    if (crashOnMarker && fs.readFileSync(file).includes(crashOnMarker)) process.kill(process.pid, 'SIGSEGV'); // test-only: a native crash
    // The document is read from the file the parent wrote: PDFium reads the blocks it needs, so no process holds a copy.
    await extractor.extract({ file }, kind, {
      onStart: (pageCount) => reply({ id, type: 'started', pages: pageCount, rssMb: rssMb() }),
      onPage: (page) => pages.push(page),
      // Written beside the document's file, in the parent's private directory, which reads and removes them.
      onAttachments: (found) =>
        found.forEach(({ filename, contentType, bytes }, i) => {
          const at = `${file}.attachment-${i}`;
          fs.writeFileSync(at, bytes, { mode: 0o600 });
          attachments.push({ filename, contentType, file: at });
        }),
      // The document's OCR budget is the parent's: other processes read other ranges of it at the same time.
      takeOcrPage: () =>
        new Promise<boolean>((answer) => {
          awaitingGrant = { id, answer };
          reply({ id, type: 'ocr-request' });
        }),
      onProgress: (fraction, pagesDone) => {
        fractionNow = fraction;
        const now = Date.now();
        const newPages = pagesDone > reportedPages && now - reportedAt >= PROGRESS_INTERVAL_MS;
        if (fraction >= 1 || fraction - reportedFraction >= 0.01 || newPages || pagesDone - reportedPages >= PAGES_PER_MESSAGE) {
          reportedFraction = fraction;
          reportedPages = pagesDone;
          reportedAt = now;
          reply({ id, type: 'progress', fraction: Math.min(1, fraction), pagesDone, pages, rssMb: rssMb() });
          pages = [];
        }
      },
      // A full collection right after pdf.js let go of its caches: V8 alone lets the heap grow far past what is live
      // (5,000 text pages: 400 MB instead of 240 MB). Only above a size, though: forced every 250 pages it cost a
      // sixth of the extraction time.
      ...cleanupPolicy(cleanup),
    }, { firstPage, lastPage, keepOpenAs: file });
    // A range that ends before the document does (fraction < 1) may still hold pages not sent.
    if (pages.length > 0) reply({ id, type: 'progress', fraction: Math.min(1, fractionNow), pagesDone: pages.at(-1)!.page, pages, rssMb: rssMb() });
    reply({ id, type: 'result', rssMb: rssMb(), ...(attachments.length > 0 && { attachments }) });
    // The pool hands the next range of a document to the process that is free at once: no range soon, no document.
    dropKeptPdf = setTimeout(() => void extractor.closeKeptPdf(), KEEP_PDF_OPEN_MS);
  } catch (error) {
    for (const { file: written } of attachments) fs.rmSync(written, { force: true });
    const err = error instanceof Error ? error : new Error(String(error));
    reply({
      id,
      type: 'error',
      unprocessable: error instanceof UnprocessableDocumentError,
      message: err.message,
      stack: err.stack,
    });
  }
}

reply({ type: 'ready' });
