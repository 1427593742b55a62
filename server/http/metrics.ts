import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';

/** The route label of a request no router matched (unknown paths, and requests refused before routing, e.g. 401). */
export const UNMATCHED_ROUTE = 'unmatched';
export const METRICS_PATH = '/metrics';

/**
 * Times every request into doc_chat_http_request_duration_seconds by method, route pattern and status. The label is
 * the pattern the router matched (`/api/v1/chat/history/:sessionId`), never the raw path, so ids do not multiply the
 * series. Observed when the response has been handed to the socket, so a streamed answer counts its whole stream.
 * Must run outside the error middleware, like the request log, to see the final status.
 */
export function httpMetrics(metrics: ServiceMetrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const stop = metrics.httpDuration.startTimer();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      stop({ method: ctx.method, route: typeof route === 'string' ? route : UNMATCHED_ROUTE, status: String(ctx.status) });
    };
    // 'finish': written out; 'close' alone: the client went away first.
    ctx.res.once('finish', observe);
    ctx.res.once('close', observe);
    await next();
  };
}

/**
 * `GET /metrics` in Prometheus' text format. Public like the health routes (scrapers rarely carry the API's user
 * tokens), unless METRICS_TOKEN is set: then only `Authorization: Bearer <METRICS_TOKEN>` is answered.
 */
export function metricsRouter(metrics: ServiceMetrics, token?: string): Router {
  const router = new Router();
  router.get(METRICS_PATH, async (ctx) => {
    if (token !== undefined && !bearerMatches(ctx.get('Authorization'), token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { error: 'Unauthorized Access' };
      return;
    }
    ctx.type = metrics.contentType;
    ctx.body = await metrics.scrape();
  });
  return router;
}

function bearerMatches(header: string, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header)?.[1] ?? '');
  const expected = Buffer.from(token);
  // Constant time, so the token cannot be guessed byte by byte from response times.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
