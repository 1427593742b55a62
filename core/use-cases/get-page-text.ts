import { NotFoundError } from '../domain/errors.js';
import { DOCUMENT_TYPES } from '../domain/content-types.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { DocumentReader } from '../ports/document-reader.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import { orNoPage, ownedPageJob, PAGE_NOT_FOUND } from './get-page-image.js';

/** A document with pages (a PDF, a photo) is shown as page images: its text is not served a page at a time. */
export const NO_PAGE_TEXT = 'This document has pages of its own: its page images show them';

export interface PageText {
  /** The unit's label ("Sheet Q3"); '' for a unit without one. */
  label: string;
  text: string;
}

/**
 * One unit of a document without pages (a sheet, a slide, a section: IngestJob.units), as text, read again from the
 * stored file, for its owner only: a source's passage shown in its context. Text, never the document's own markup.
 */
export class GetPageText {
  constructor(private readonly deps: { jobs: IngestJobRepo; blobs: BlobStore; reader: DocumentReader }) {}

  /** `page` must be a whole number from 1 (checked by the caller). */
  async execute(input: { userId: string; jobId: string; page: number }): Promise<PageText> {
    const job = await ownedPageJob(this.deps.jobs, input);
    if (!job.units) throw new NotFoundError(NO_PAGE_TEXT);
    // The reader reads a unit document whole anyway (its units are parts of one file); it hands back those from `page` on.
    if (!Object.hasOwn(DOCUMENT_TYPES, job.contentType)) throw new NotFoundError(PAGE_NOT_FOUND);
    const document = () => this.deps.blobs.stream(job.key);
    const pages = await orNoPage(this.deps.reader.read({ document, contentType: job.contentType, firstPage: input.page }));
    const page = pages?.find((p) => p.page === input.page);
    if (!page) throw new NotFoundError(PAGE_NOT_FOUND);
    return { label: page.label ?? job.units[input.page - 1] ?? '', text: page.text };
  }
}
