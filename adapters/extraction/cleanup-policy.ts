import v8 from 'node:v8';
import type { ExtractionEvents } from './document-extractor.js';

/** When an extraction process drops pdf.js's caches and forces a garbage collection (see ExtractionEvents). */
export interface CleanupThresholds {
  /** pdf.js's caches are dropped between two pages when the V8 heap holds more than this. */
  cleanupAboveHeapMb: number;
  /** After pdf.js dropped its caches, a full garbage collection is forced only when the process is this large. */
  collectAboveRssMb: number;
}

const MB = 1024 * 1024;

/**
 * The caches are dropped on the size of the V8 heap, which is what dropping them and collecting can shrink, never on
 * the resident size. Issue 18's profile: the OCR engine's thread and its wasm memory, started by the first scanned
 * page of a long document, add ~150 MB of resident memory no cleanup can free; with the trigger on the resident size
 * (above 512 MB) every later page then dropped the caches (re-parsing its fonts) and forced a full collection: 34% of
 * the CPU in GC, 7 pages/s instead of 50, with a V8 heap of only 45 MB. The forced collection keeps its resident-size
 * test, but it now follows only a cleanup, which the extractor spaces out.
 */
export function cleanupPolicy(thresholds: CleanupThresholds, counters?: { cleanups: number; collections: number }): Pick<ExtractionEvents, 'shouldCleanUp' | 'onCleanedUp'> {
  return {
    shouldCleanUp: () => v8.getHeapStatistics().used_heap_size > thresholds.cleanupAboveHeapMb * MB,
    onCleanedUp: () => {
      if (counters) counters.cleanups++;
      if (process.memoryUsage.rss() <= thresholds.collectAboveRssMb * MB) return;
      if (counters) counters.collections++;
      (globalThis as { gc?: () => void }).gc?.(); // --expose-gc is given by the parent
    },
  };
}
