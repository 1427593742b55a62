import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';

/**
 * The English LSTM model shipped in @tesseract.js-data/eng. tesseract.js downloads from a CDN when langPath is not
 * set (and hangs without network), so we always point it at the installed package and fail loudly if it is missing.
 */
export function englishLanguagePath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  const langPath = path.join(path.dirname(packageJson), '4.0.0_best_int');
  if (!fs.existsSync(path.join(langPath, 'eng.traineddata.gz'))) {
    throw new Error(`OCR language data not found at ${langPath}; reinstall @tesseract.js-data/eng`);
  }
  return langPath;
}

/**
 * Page segmentation: 'auto' finds columns and blocks (scanned book and article pages read in the right order);
 * 'block' treats the image as one block of lines, which keeps "label ... amount" on one line on receipts and forms.
 */
export type Layout = 'auto' | 'block';

/** A line of words as OCR read them, each word's box in the image's pixels (x0, y0: top left; x1, y1: bottom right). */
export interface OcrLine {
  words: { text: string; x0: number; y0: number; x1: number; y1: number }[];
}

/** One tesseract worker, created on first use and reused for every page this extraction process OCRs. */
export class OcrEngine {
  private worker: Promise<TesseractWorker> | undefined;
  private onProgress: ((fraction: number) => void) | undefined;
  /** Workers being stopped on purpose (the engine is stopped between documents and after pages without OCR). */
  private readonly terminating = new WeakSet<object>();

  async recognize(image: Uint8Array, layout: Layout, onProgress?: (fraction: number) => void): Promise<string> {
    const worker = await this.start();
    await worker.setParameters({ tessedit_pageseg_mode: layout === 'auto' ? PSM.AUTO : PSM.SINGLE_BLOCK });
    this.onProgress = onProgress;
    try {
      const result = await worker.recognize(image);
      return result.data.text;
    } finally {
      this.onProgress = undefined;
    }
  }

  /**
   * The words read on the image, line by line, each with its box in the image's pixels: where a passage of the text
   * recognize() gave lies on the image (the same image and layout read the same words).
   */
  async recognizeLines(image: Uint8Array, layout: Layout): Promise<OcrLine[]> {
    const worker = await this.start();
    await worker.setParameters({ tessedit_pageseg_mode: layout === 'auto' ? PSM.AUTO : PSM.SINGLE_BLOCK });
    const { data } = await worker.recognize(image, {}, { text: false, blocks: true });
    return (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.map((line) => ({
      words: line.words.map(({ text, bbox }) => ({ text, ...bbox })),
    }))));
  }

  /** Whether the engine's thread is started (or starting): it holds ~150 MB until terminate(). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  async terminate(): Promise<void> {
    const starting = this.worker;
    this.worker = undefined;
    if (!starting) return;
    const worker = await starting.catch(() => undefined); // a failed start left nothing to stop
    if (!worker) return;
    this.terminating.add(worker);
    await worker.terminate();
  }

  private start(): Promise<TesseractWorker> {
    this.worker ??= (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: englishLanguagePath(),
        cacheMethod: 'none', // never write a copy of the model to the working directory
        gzip: true,
        logger: (message) => {
          if (message.status === 'recognizing text') this.onProgress?.(message.progress);
        },
        // Without a handler tesseract.js rethrows job failures from its message listener (an uncaught exception);
        // with one, the failure only rejects the job's promise, which we handle.
        errorHandler: () => {},
      });
      // Tesseract's own thread dying would leave a recognize() pending forever: crash this extraction process
      // instead, so the pool rejects the document and replaces the process.
      (worker as unknown as { worker: NodeJS.EventEmitter }).worker.on('exit', () => {
        if (!this.terminating.has(worker)) throw new Error('The OCR engine thread exited unexpectedly');
      });
      // Silence diagnostics Tesseract prints to stdout ("Estimating resolution as ...", "Detected 12 diacritics").
      await worker.setParameters({ debug_file: '/dev/null' });
      return worker;
    })();
    // A failed start (e.g. missing model) must not be cached: the next page tries again and reports its own error.
    this.worker.catch(() => {
      this.worker = undefined;
    });
    return this.worker;
  }
}
