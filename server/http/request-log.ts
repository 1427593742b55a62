import type { Context, Next } from 'koa';
import type { Logger } from '../../core/ports/logger.js';

/** The Logger port, plus a debug level where the adapter has one (pino's does). */
export type RequestLogger = Logger & { debug?: Logger['info'] };

const HEALTH_PATH = /^\/api\/v1\/health(\/ready)?\/*$/i;


/**
 * One line per request once it is answered: method, route pattern (when a route matched), path, status, duration
 * and the X-Request-Id. Never headers or the query string: they carry the bearer token and upload URL signatures.
 * Health checks (polled every few seconds by orchestrators) go to debug, or nowhere when the logger has no debug.
 * Must run outside the error middleware so it sees the final status and the request id that middleware assigned.
 */
export function requestLog(logger: RequestLogger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    // A double, not hrtime.bigint(): no BigInt allocated twice per request (every request passes here).
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const { path } = ctx;
      // One object literal of a fixed shape (no conditional spread); JSON lines leave out a route that is undefined.
      const fields = {
        requestId: ctx.state.requestId as string | undefined,
        method: ctx.method,
        route: typeof route === 'string' ? route : undefined,
        path,
        status: ctx.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      };
      if (HEALTH_PATH.test(path)) logger.debug?.('request completed', fields);
      else logger.info('request completed', fields);
    }
  };
}
