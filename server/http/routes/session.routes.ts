import Router from '@koa/router';
import type { Session } from '../../../core/domain/model.js';
import type { DocChat } from '../../../core/index.js';
import { userIdOf } from '../auth.js';
import { labelBody } from '../schemas.js';
import { parse } from '../validation.js';
import { ingestJobJson } from './ingest.routes.js';

/** The spec's session object: snake_case user_id, camelCase createdAt. */
function toJson(session: Session, withCreatedAt = true) {
  const json: Record<string, string> = { id: session.id, label: session.label, user_id: session.userId };
  if (withCreatedAt) json.createdAt = session.createdAt;
  return json;
}

export function sessionRoutes(docChat: DocChat): Router {
  const router = new Router();

  router.get('/session/', async (ctx) => {
    const sessions = await docChat.listSessions.execute({ userId: userIdOf(ctx) });
    ctx.body = sessions.map((s) => toJson(s));
  });

  router.post('/session/', async (ctx) => {
    const { label } = parse(labelBody, ctx.request.body);
    const session = await docChat.createSession.execute({ userId: userIdOf(ctx), label });
    ctx.status = 201;
    ctx.body = { data: toJson(session) };
  });

  router.patch('/session/:sessionId', async (ctx) => {
    const { label } = parse(labelBody, ctx.request.body);
    const session = await docChat.renameSession.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId, label });
    // The spec's rename response omits createdAt.
    ctx.body = { data: toJson(session, false) };
  });

  router.delete('/session/:sessionId', async (ctx) => {
    await docChat.deleteSession.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId });
    ctx.status = 204;
  });

  // A session's documents are its ingest jobs, in the record shape of GET /ingest/:id, newest first.
  router.get('/session/:sessionId/documents', async (ctx) => {
    const jobs = await docChat.listDocuments.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId });
    ctx.body = { data: jobs.map(ingestJobJson) };
  });

  router.delete('/session/:sessionId/documents/:ingestId', async (ctx) => {
    await docChat.deleteDocument.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId, ingestId: ctx.params.ingestId });
    ctx.status = 204;
  });

  return router;
}
