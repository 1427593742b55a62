import type { ExtractedPage } from '../domain/model.js';

/**
 * The unit labels of a document's pages as they are read (IngestJob.units): page n's at n - 1, '' for a page without
 * one. A document none of whose pages has a label (a PDF, a photo) has none at all.
 */
export class UnitLabelList {
  private readonly labels: string[];

  /** `earlier`: what an earlier run of the job recorded for the pages before its checkpoint. */
  constructor(earlier: readonly string[] = []) {
    this.labels = [...earlier];
  }

  add(page: ExtractedPage): void {
    if (page.label) this.labels[page.page - 1] = page.label;
  }

  /** The labels of pages 1..`pages` (holes as ''), or undefined when none has one. */
  upTo(pages: number): string[] | undefined {
    const labels = Array.from({ length: pages }, (_, i) => this.labels[i] ?? '');
    return labels.some(Boolean) ? labels : undefined;
  }
}
