import Router from '@koa/router';
import type { DocChat, DocumentLibrary } from '../../../core/index.js';
import { userIdOf } from '../auth.js';
import { addDocumentBody, searchQuery } from '../schemas.js';
import { parse } from '../validation.js';
import { ingestJobJson } from './ingest.routes.js';

function libraryJson(library: DocumentLibrary) {
  return {
    data: library.documents.map((d) => ({
      id: d.id,
      filename: d.filename,
      contentType: d.contentType,
      ...(d.pages !== undefined && { pages: d.pages }),
      ...(d.chunks !== undefined && { chunks: d.chunks }),
      sessions: d.sessions.map((h) => ({ sessionId: h.sessionId, label: h.sessionLabel, ingestId: h.ingestId, addedAt: h.addedAt })),
    })),
    truncated: library.truncated,
  };
}

/** The caller's document library across sessions, adding one of its documents to a session, and the record search. */
export function libraryRoutes(docChat: DocChat): Router {
  const router = new Router();

  router.get('/documents', async (ctx) => {
    ctx.body = libraryJson(await docChat.listLibrary.execute({ userId: userIdOf(ctx) }));
  });

  router.post('/session/:sessionId/documents', async (ctx) => {
    const { documentId } = parse(addDocumentBody, ctx.request.body);
    const { job, created } = await docChat.addLibraryDocument.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId, documentId });
    ctx.status = created ? 201 : 200;
    ctx.body = { data: ingestJobJson(job) };
  });

  router.get('/search', async (ctx) => {
    const { q } = parse(searchQuery, ctx.query);
    ctx.body = { data: await docChat.searchRecords.execute({ userId: userIdOf(ctx), query: q }) };
  });

  return router;
}
