import { NotFoundError, UnprocessableDocumentError } from '../domain/errors.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { IngestJob } from '../domain/model.js';
import type { PageImage, PageRenderer } from '../ports/page-renderer.js';
import { INGEST_JOB_NOT_FOUND } from './get-ingest-job.js';
import { PageImageCache } from './page-image-cache.js';

export const PAGE_NOT_FOUND = 'Page not found';
/** Longest side of a page image unless a smaller width is asked for: legible on a large screen, ~0.2–0.5 MB as PNG. */
export const MAX_PAGE_IMAGE_SIDE = 1600;
export const MIN_PAGE_IMAGE_SIDE = 100;
/** Rendered pages kept for repeated views (a source opened again, several sources on one page). */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;

export interface PageImageResult extends PageImage {
  /** Names this rendering: same job, page, size and stored content give the same tag. */
  etag: string;
}

/**
 * The page of a document as an image, rendered from the stored file, for its owner only. Renderings are cached by
 * job, page and size; the cache entry of a deleted document is never reached again (the owner check fails first).
 */
export class GetPageImage {
  private readonly cache: PageImageCache;

  constructor(
    private readonly deps: { jobs: IngestJobRepo; blobs: BlobStore; renderer: PageRenderer; cacheBytes?: number },
  ) {
    this.cache = new PageImageCache(deps.cacheBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  }

  /** `maxSide` is bounded to MIN..MAX_PAGE_IMAGE_SIDE; `page` must be a whole number from 1 (checked by the caller). */
  async execute(input: { userId: string; jobId: string; page: number; maxSide?: number }): Promise<PageImageResult> {
    const job = await ownedPageJob(this.deps.jobs, input);
    const maxSide = Math.min(MAX_PAGE_IMAGE_SIDE, Math.max(MIN_PAGE_IMAGE_SIDE, Math.round(input.maxSide ?? MAX_PAGE_IMAGE_SIDE)));
    const version = job.sha256?.slice(0, 16) ?? job.updatedAt;
    const key = `${job.id}:${version}:${input.page}:${maxSide}`;
    const image = await this.cache.getOrRender(key, async () => {
      // Read when the renderer gets to it, a piece at a time: pages asked for at once of a 40 MB report would each
      // hold a copy of it while they wait their turn.
      const document = () => this.deps.blobs.stream(job.key);
      // The hash taken at ingestion names the bytes: the renderer may keep them for the next page a reader opens.
      return orNoPage(this.deps.renderer.render({ document, contentKey: job.sha256, contentType: job.contentType, page: input.page, maxSide, requestedBy: input.userId }));
    });
    if (!image) throw new NotFoundError(PAGE_NOT_FOUND);
    return { ...image, etag: `"${key.replace(/:/g, '-')}"` };
  }
}

/** The job whose page is asked for, if it is the user's and may have that page (else NotFoundError, as API says). */
export async function ownedPageJob(jobs: IngestJobRepo, input: { userId: string; jobId: string; page: number }): Promise<IngestJob> {
  const job = await jobs.findById(input.jobId);
  if (!job || job.userId !== input.userId) throw new NotFoundError(INGEST_JOB_NOT_FOUND);
  // Pages beyond those read are known not to exist without opening the file.
  if (job.pages !== undefined && input.page > job.pages) throw new NotFoundError(PAGE_NOT_FOUND);
  return job;
}

/** A file no longer stored, or one that cannot be read (the failed job's reason says why), has no page to show. */
export async function orNoPage<T>(work: Promise<T | null>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof UnprocessableDocumentError) return null;
    throw error;
  }
}
