import { NotFoundError, ValidationError } from '../domain/errors.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { PageArea, PageRenderer } from '../ports/page-renderer.js';
import { orNoPage, ownedPageJob, PAGE_NOT_FOUND } from './get-page-image.js';

/** A passage looked for is at most this long: a source's excerpt (400 characters and its "…") fits. */
export const MAX_PASSAGE_CHARS = 1000;

/**
 * Where a passage (the excerpt a source quotes) is drawn on a page of the owner's document, as areas of the page's
 * image, so that the cited words can be marked on it. [] when the page does not hold it: the page is still shown,
 * unmarked.
 */
export class FindPassageOnPage {
  constructor(private readonly deps: { jobs: IngestJobRepo; blobs: BlobStore; renderer: PageRenderer }) {}

  /** `page` must be a whole number from 1 (checked by the caller). */
  async execute(input: { userId: string; jobId: string; page: number; text: string }): Promise<PageArea[]> {
    const text = input.text.trim();
    if (!text) throw new ValidationError('text: the passage to find must not be blank');
    if (text.length > MAX_PASSAGE_CHARS) throw new ValidationError(`text: the passage to find must be at most ${MAX_PASSAGE_CHARS} characters`);
    const job = await ownedPageJob(this.deps.jobs, input);
    const document = () => this.deps.blobs.stream(job.key);
    const areas = await orNoPage(
      this.deps.renderer.findText({ document, contentKey: job.sha256, contentType: job.contentType, page: input.page, text, requestedBy: input.userId }),
    );
    if (!areas) throw new NotFoundError(PAGE_NOT_FOUND);
    return areas;
  }
}
