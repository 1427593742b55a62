import Router from '@koa/router';
import { IngestAlreadyActiveError } from '../../../core/domain/errors.js';
import type { IngestJob } from '../../../core/domain/model.js';
import type { DocChat } from '../../../core/index.js';
import { userIdOf } from '../auth.js';
import { ingestBody, pageImageQuery, pageParams, passageQuery, uploadUrlBody } from '../schemas.js';
import { parse } from '../validation.js';
import { atOrigin, requestOrigin } from '../request-origin.js';

/** The status record of GET /ingest/:id (architecture guide); optional fields appear once known. */
export function ingestJobJson(job: IngestJob) {
  return {
    id: job.id,
    status: job.status,
    ...(job.stage !== undefined && { stage: job.stage }),
    ...(job.progress !== undefined && { progress: job.progress }),
    filename: job.filename,
    session_id: job.sessionId,
    ...(job.error !== undefined && { error: job.error }),
    // The app says "extracting page 52"; only while processing (a finished job's last page read means nothing).
    ...(job.status === 'processing' && job.readingPage !== undefined && { readingPage: job.readingPage }),
    ...(job.pages !== undefined && { pages: job.pages }),
    ...(job.chunks !== undefined && { chunks: job.chunks }),
    // Only when it tells something: pages the OCR limit skipped, and runs beyond the first (a retried job).
    ...(job.ocrSkippedPages !== undefined && job.ocrSkippedPages > 0 && { ocrSkippedPages: job.ocrSkippedPages }),
    ...(job.attempts !== undefined && job.attempts > 1 && { attempts: job.attempts }),
    ...(job.reusedFrom !== undefined && { reusedFrom: job.reusedFrom }),
    ...(job.kind !== undefined && { kind: job.kind }),
    ...(job.copiedFrom !== undefined && { copiedFrom: job.copiedFrom }),
    ...(job.attachedTo !== undefined && { attachedTo: job.attachedTo }),
    tags: job.tags,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

export interface IngestRouteOptions {
  /** Signed upload URLs name the origin each request came to (files on this server, no PUBLIC_URL set). */
  uploadUrlsAtRequestOrigin?: boolean;
}

export function ingestRoutes(docChat: DocChat, options: IngestRouteOptions = {}): Router {
  const router = new Router();

  router.post('/ingest/upload/url', async (ctx) => {
    const input = parse(uploadUrlBody, ctx.request.body);
    const uploadData = await docChat.createUploadUrl.execute({ userId: userIdOf(ctx), ...input });
    if (options.uploadUrlsAtRequestOrigin) uploadData.signedUrl = atOrigin(uploadData.signedUrl, requestOrigin(ctx));
    ctx.body = { uploadData };
  });

  // Extension: the file types the upload-URL route takes here (ACCEPTED_TYPES), so a client can say so before it asks.
  router.get('/ingest/upload/types', (ctx) => {
    const { list, extensions } = docChat.acceptedTypes;
    ctx.body = { data: { contentTypes: list, extensions } };
  });

  router.post('/ingest/process', async (ctx) => {
    const input = parse(ingestBody, ctx.request.body);
    const job = await docChat.startIngestion
      .execute({ userId: userIdOf(ctx), sessionId: input.session_id, key: input.key, filename: input.filename, tags: input.tags })
      .catch((error: unknown) => {
        if (!(error instanceof IngestAlreadyActiveError)) throw error;
        // Like the 201's `data`, the id of the job to poll: the one already queued or processing.
        ctx.status = 409;
        ctx.body = { error: error.message, data: error.jobId };
        return null;
      });
    if (!job) return;
    ctx.status = 201;
    ctx.body = { data: job.id };
  });

  router.get('/ingest/:id', async (ctx) => {
    const job = await docChat.getIngestJob.execute({ userId: userIdOf(ctx), jobId: ctx.params.id });
    ctx.body = { data: ingestJobJson(job) };
  });

  // A page as an image: cached by the browser for an hour (private: it is the user's document), revalidated by ETag.
  router.get('/ingest/:id/pages/:page', async (ctx) => {
    const { page } = parse(pageParams, { page: ctx.params.page });
    const { width } = parse(pageImageQuery, ctx.query);
    const image = await docChat.getPageImage.execute({ userId: userIdOf(ctx), jobId: ctx.params.id, page, maxSide: width });
    ctx.set('Cache-Control', `private, max-age=${PAGE_IMAGE_MAX_AGE_SECONDS}`);
    ctx.set('ETag', image.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = image.contentType;
    ctx.body = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  });

  // Where a source's excerpt is drawn on its page, to mark it there: the same for the same stored file.
  router.get('/ingest/:id/pages/:page/find', async (ctx) => {
    const { page } = parse(pageParams, { page: ctx.params.page });
    const { text } = parse(passageQuery, ctx.query);
    const areas = await docChat.findPassageOnPage.execute({ userId: userIdOf(ctx), jobId: ctx.params.id, page, text });
    ctx.set('Cache-Control', `private, max-age=${PAGE_IMAGE_MAX_AGE_SECONDS}`);
    ctx.body = { data: areas };
  });

  // Extension: a unit of a document without pages (a sheet, a slide) as text, to show a source's passage in its context.
  router.get('/ingest/:id/pages/:page/text', async (ctx) => {
    const { page } = parse(pageParams, { page: ctx.params.page });
    const { label, text } = await docChat.getPageText.execute({ userId: userIdOf(ctx), jobId: ctx.params.id, page });
    ctx.set('Cache-Control', `private, max-age=${PAGE_IMAGE_MAX_AGE_SECONDS}`);
    ctx.body = { data: { label, text } };
  });

  return router;
}

const PAGE_IMAGE_MAX_AGE_SECONDS = 3600;
