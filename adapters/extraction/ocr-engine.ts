import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createWorker, OEM, PSM, type Line, type Worker as TesseractWorker } from 'tesseract.js';

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

/**
 * Lines OCR reads with less confidence (0-100) are dropped: on the corpus's photos and scans they are what a stamp, a
 * logo, a map or a picture's caption reads as ("1 L Te TA ma F", "K-U-N-D=E-~N-BeBrle-E Gr", "Mad) / 4 & £"), quoted
 * at the top of an overview. Chosen on every photo and scan of ../shared/data (bench/ocr-lines.ts; there is no
 * held-out part): of the words of their reference texts 0.840 are read with every line and 0.836 without those, and
 * of the words read, 333 and 292 are in no reference.
 */
export const MIN_LINE_CONFIDENCE = 30;

const isConfident = (line: { confidence: number }) => line.confidence >= MIN_LINE_CONFIDENCE;

/** The text of OCR's lines (each ends in its line break) at MIN_LINE_CONFIDENCE or above, paragraph breaks kept. */
export function confidentText(lines: readonly { text: string; confidence: number }[]): string {
  let text = '';
  for (const line of lines) {
    // A dropped line that ended its paragraph ("…\n\n") leaves the paragraph's break behind.
    text += isConfident(line) ? line.text : (/\n\n+$/.exec(line.text)?.[0].slice(1) ?? '');
  }
  return text;
}

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

  /** The text read on the image, without the lines OCR itself doubts (readLines). */
  async recognize(image: Uint8Array, layout: Layout, onProgress?: (fraction: number) => void): Promise<string> {
    this.onProgress = onProgress;
    try {
      return confidentText(await this.readLines(image, layout));
    } finally {
      this.onProgress = undefined;
    }
  }

  /**
   * The words read on the image, line by line, each with its box in the image's pixels: where a passage of the text
   * recognize() gave lies on the image (the same image and layout read the same words).
   */
  async recognizeLines(image: Uint8Array, layout: Layout): Promise<OcrLine[]> {
    return (await this.readLines(image, layout))
      .filter(isConfident)
      .map((line) => ({ words: line.words.map(({ text, bbox }) => ({ text, ...bbox })) }));
  }

  /**
   * Every line OCR read, with its confidence (0-100), in reading order; their texts joined are the page's text
   * (paragraph breaks included). recognize() and recognizeLines() leave out those below MIN_LINE_CONFIDENCE.
   */
  async readLines(image: Uint8Array, layout: Layout): Promise<Line[]> {
    const worker = await this.start();
    await worker.setParameters({ tessedit_pageseg_mode: layout === 'auto' ? PSM.AUTO : PSM.SINGLE_BLOCK });
    const { data } = await worker.recognize(image, {}, { text: false, blocks: true });
    return (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines));
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
