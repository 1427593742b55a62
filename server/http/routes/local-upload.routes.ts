import Router from '@koa/router';
import type { IncomingMessage } from 'node:http';
import { InsufficientStorageError } from '../../../core/domain/errors.js';
import type { StorageSpace } from '../../../core/ports/storage-space.js';
import type { LocalBlobStore } from '../../../adapters/local-blob/local-blob-store.js';

/**
 * `PUT /uploads/<key>`: the target of LocalBlobStore's upload URLs. Not under /api/v1 and without
 * bearer auth: the signed query string is the authorisation. The raw request stream is handed to
 * the store, so no body parser may run before this router for these paths.
 */
/** Where the signed upload URLs point; these bodies get the long upload timeout (server/http/client-limits.ts). */
export const UPLOAD_PATH_PREFIX = '/uploads/';

export function localUploadRouter(store: LocalBlobStore, space?: StorageSpace): Router {
  const router = new Router();

  router.put(`${UPLOAD_PATH_PREFIX}*key`, async (ctx) => {
    const key = ctx.params.key;
    const result = (await roomRefusal(space)) ?? await store.acceptUpload({
      key: typeof key === 'string' ? key : '',
      query: ctx.query,
      contentType: ctx.get('content-type') || undefined,
      contentLength: parseContentLength(ctx.get('content-length')),
      body: ctx.req,
    });
    if (result.status !== 200) discardRest(ctx.req, store.maxBytes);
    ctx.status = result.status;
    ctx.body = result.status === 200 ? { ok: true } : { error: result.error ?? 'Upload refused' };
  });

  return router;
}

/**
 * A 507 while DATA_DIR is below its free-space reserve: the body is not read (the store answers 507 too if the disk
 * fills while it is).
 */
async function roomRefusal(space: StorageSpace | undefined): Promise<{ status: number; error: string } | undefined> {
  try {
    await space?.ensureRoom();
    return undefined;
  } catch (error) {
    if (error instanceof InsufficientStorageError) return { status: 507, error: error.message };
    throw error;
  }
}

function parseContentLength(header: string): number | undefined {
  return /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * After a refusal the client may still be sending. Read and drop the rest, as Node does for bodies
 * nobody reads, so the client can finish its request and see our answer instead of a reset
 * connection (the answer says Connection: close: server/http/unread-body.ts); but stop the
 * connection once more than `limit` further bytes arrive.
 */
function discardRest(req: IncomingMessage, limit: number): void {
  if (req.complete || req.destroyed) return;
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) req.socket.destroy();
  });
  req.on('error', () => {});
  req.resume();
}
