/**
 * Entry point of the page-image child process (forked by ChildProcessPageRenderer, with an IPC channel): one page at
 * a time, so rendering never runs on the server's event loop and a native crash or runaway memory costs only this
 * process.
 */
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { PageArea, PageImage } from '../../core/ports/page-renderer.js';
import { DEFAULT_EXTRACTION_SETTINGS } from './child-process-document-reader.js';
import { OcrEngine, type OcrLine } from './ocr-engine.js';
import { findTextInPdf, findTextInPhoto, openPdfForViewing, renderPageImage, renderPdfPageImage, type OcrFinding } from './page-image.js';
import { wholeBytes } from './read-whole-file.js';
import type { PageRenderJob, PageRenderReply } from './page-render-protocol.js';
import type { PdfPageSource, PdfReaderName } from './pdf-page-source.js';

/**
 * A kept file's PDF stays open between jobs: the next page of a long report is drawn without parsing the file again
 * (PDFium, a page of the 4,557-page PDF drawn and encoded: p50 35 ms, 79 ms opened anew; bench/page-images.ts). Its
 * caches are dropped now and then.
 */
let open: { file: string; reader: PdfReaderName; pdf: PdfPageSource; renders: number } | undefined;
const RENDERS_BETWEEN_CLEANUPS = 200;

async function closeOpen(): Promise<void> {
  const closing = open;
  open = undefined;
  await closing?.pdf.close().catch(() => {});
}

/**
 * Scanned pages and photos are read by OCR again to place a passage on them (1-5 s a page). What OCR read is kept for
 * the pages of kept files, so the next source on the same page is found at once. The engine is let go after each
 * page it reads: started anew it costs ~0.4 s more, kept it left this process 105 MB larger over the corpus's 17 scans
 * and photos (peak 641 against 517-536 MB, bench/passage-marks.ts), in the process that draws every user's page images.
 */
const ocr = new OcrEngine();
const KEPT_OCR_PAGES = 32;
const ocrRead = new Map<string, OcrLine[]>();

/** OCR for one job's page: read once per kept file and page (`key`), or each time when the file is not kept. */
function ocrFinding(key: string | undefined): OcrFinding {
  const recognizeLines = async (...args: Parameters<OcrEngine['recognizeLines']>): Promise<OcrLine[]> => {
    const known = key === undefined ? undefined : ocrRead.get(key);
    if (known) return known;
    try {
      const lines = await ocr.recognizeLines(...args);
      if (key !== undefined) {
        ocrRead.set(key, lines);
        for (const old of ocrRead.keys()) if (ocrRead.size > KEPT_OCR_PAGES) ocrRead.delete(old);
      }
      return lines;
    } finally {
      void ocr.terminate();
    }
  };
  return { settings: DEFAULT_EXTRACTION_SETTINGS, ocr: { recognizeLines } };
}

/** The job's page drawn, or its passage found: null when the document has no such page. */
async function run({ file, kind, reader, page, task, keep }: PageRenderJob): Promise<PageImage | PageArea[] | null> {
  // Formats without drawn pages (Word, sheets, slides, text, mail) have no page image: the app shows their passages as
  // text. PNG, WebP, TIFF and HEIC pages are drawn; where a passage lies on them is not looked for (no marks).
  if (kind === 'png' || kind === 'webp' || kind === 'tiff' || kind === 'heic') return 'find' in task ? [] : renderPageImage({ file }, kind, page, task.draw, reader);
  if (kind !== 'pdf' && kind !== 'jpeg') return null;
  if (kind === 'jpeg') {
    if ('find' in task) return page === 1 ? findTextInPhoto(wholeBytes({ file }), task.find, ocrFinding(keep ? file : undefined)) : null;
    return renderPageImage({ file }, kind, page, task.draw, reader);
  }
  const finding = ocrFinding(keep ? `${file}#${page}` : undefined);
  const use = (pdf: PdfPageSource) => ('find' in task ? findTextInPdf(pdf, page, task.find, finding) : renderPdfPageImage(pdf, page, task.draw));
  if (!keep) {
    const pdf = await openPdfForViewing({ file }, reader);
    try {
      return await use(pdf);
    } finally {
      await pdf.close();
    }
  }
  if (open?.file !== file || open.reader !== reader) {
    await closeOpen();
    open = { file, reader, pdf: await openPdfForViewing({ file }, reader), renders: 0 };
  }
  const kept = open;
  try {
    if (++kept.renders % RENDERS_BETWEEN_CLEANUPS === 0) await kept.pdf.dropCaches();
    return await use(kept.pdf);
  } catch (error) {
    await closeOpen(); // its state after a failure is unknown: the next job opens the file afresh
    throw error;
  }
}

if (!process.send) throw new Error('page-render-worker must run as a forked child process with an IPC channel');
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

const reply = (message: PageRenderReply): void => {
  if (process.connected) process.send!(message, undefined, undefined, () => {});
};

process.on('message', async (job: PageRenderJob) => {
  const { id } = job;
  try {
    const done = await run(job);
    if (done === null) reply({ id, type: 'missing' });
    else if (Array.isArray(done)) reply({ id, type: 'areas', areas: done });
    else reply({ id, type: 'image', bytes: done.bytes, contentType: done.contentType });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const name = error instanceof Error ? error.name : '';
    // pdf.js's errors for a file that is not a readable PDF.
    const unprocessable = error instanceof UnprocessableDocumentError || /InvalidPDF|FormatError|PasswordException|Unsupported JPEG|JpegError/.test(`${name} ${message}`);
    reply({ id, type: 'error', unprocessable, message });
  }
});

reply({ type: 'ready' });
