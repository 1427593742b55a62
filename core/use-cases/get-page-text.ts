import { NotFoundError } from '../domain/errors.js';
import { DOCUMENT_TYPES } from '../domain/content-types.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { DocumentReader } from '../ports/document-reader.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import { orNoPage, ownedPageJob, PAGE_NOT_FOUND } from './get-page-image.js';
import { PageImageCache } from './page-image-cache.js';

/** A document with pages (a PDF, a photo) is shown as page images: its text is not served a page at a time. */
export const NO_PAGE_TEXT = 'This document has pages of its own: its page images show them';
/** Documents whose units were read lately, kept whole: a reader opens one source after another of a workbook. */
export const DEFAULT_PAGE_TEXT_CACHE_BYTES = 16 * 1024 * 1024;

export interface PageText {
  /** The unit's label ("Sheet Q3"); '' for a unit without one. */
  label: string;
  text: string;
}

/**
 * One unit of a document without pages (a sheet, a slide, a section: IngestJob.units), as text, read again from the
 * stored file, for its owner only: a source's passage shown in its context. Text, never the document's own markup.
 * The document's units are read together (its units are parts of one file, read whole anyway) and kept for a while.
 */
export class GetPageText {
  private readonly cache: PageImageCache<PageText[]>;

  constructor(private readonly deps: { jobs: IngestJobRepo; blobs: BlobStore; reader: DocumentReader; cacheBytes?: number }) {
    // Two bytes a character, as JavaScript holds them.
    this.cache = new PageImageCache(deps.cacheBytes ?? DEFAULT_PAGE_TEXT_CACHE_BYTES, (units) => units.reduce((sum, u) => sum + 2 * (u.label.length + u.text.length), 0));
  }

  /** `page` must be a whole number from 1 (checked by the caller). */
  async execute(input: { userId: string; jobId: string; page: number }): Promise<PageText> {
    const job = await ownedPageJob(this.deps.jobs, input);
    if (!job.units) throw new NotFoundError(NO_PAGE_TEXT);
    if (!Object.hasOwn(DOCUMENT_TYPES, job.contentType)) throw new NotFoundError(PAGE_NOT_FOUND);
    const version = job.sha256?.slice(0, 16) ?? job.updatedAt;
    const units = await this.cache.getOrRender(`${job.id}:${version}`, async () => {
      const document = () => this.deps.blobs.stream(job.key);
      const pages = await orNoPage(this.deps.reader.read({ document, contentType: job.contentType }));
      return pages && pages.map((p) => ({ label: p.label ?? job.units![p.page - 1] ?? '', text: p.text }));
    });
    const unit = units?.[input.page - 1];
    if (!unit) throw new NotFoundError(PAGE_NOT_FOUND);
    return unit;
  }
}
