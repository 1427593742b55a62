import type { ExtractedPage } from '../domain/model.js';

/**
 * The unit labels of a document's pages as they are read (IngestJob.units): page n's at n - 1, '' for a page without
 * one. A document whose pages come without labels (a PDF, a photo) has none at all; one read as units has them even
 * when every label is '' (a short text file), so that its units can be shown as text.
 */
export class UnitLabelList {
  private readonly labels: string[];
  private units: boolean;

  /** `earlier`: what an earlier run of the job recorded for the pages before its checkpoint. */
  constructor(earlier?: readonly string[]) {
    this.labels = [...(earlier ?? [])];
    this.units = earlier !== undefined;
  }

  add(page: ExtractedPage): void {
    if (page.label === undefined) return;
    this.units = true;
    this.labels[page.page - 1] = page.label;
  }

  /** The labels of pages 1..`pages` (holes as ''), or undefined when the document is not read as units. */
  upTo(pages: number): string[] | undefined {
    return this.units ? Array.from({ length: pages }, (_, i) => this.labels[i] ?? '') : undefined;
  }
}
