import cors from '@koa/cors';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import type { DocChat } from '../../core/index.js';
import type { DependencyProbe } from '../../core/ports/health-check.js';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { AuthFailureLimit } from './auth-failure-limit.js';
import { bearerAuth } from './auth.js';
import { requestRefusal } from './client-limits.js';
import { errorMiddleware, OverCapacityError, rejectRequestBody } from './errors.js';
import { chatRoutes } from './routes/chat.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { requestLog, type RequestLogger } from './request-log.js';
import { ingestRoutes } from './routes/ingest.routes.js';
import { libraryRoutes } from './routes/library.routes.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { authConfigRoutes, type AuthConfigJson } from './routes/auth-config.routes.js';
import { sessionRoutes } from './routes/session.routes.js';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import { httpMetrics, metricsRouter } from './metrics.js';
import { QuestionAdmission } from './question-admission.js';
import { webApp, type WebAppOptions } from './web-app.js';

export const API_PREFIX = '/api/v1';
export const JSON_BODY_LIMIT = '1mb';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The one rule for "under the API": the routers match paths case-insensitively, so the auth gate must too. */
const UNDER_API = new RegExp(`^${API_PREFIX}(/|$)`, 'i');
export const isApiPath = (path: string): boolean => UNDER_API.test(path);

export interface HttpAppDeps {
  docChat: DocChat;
  identity: IdentityVerifier;
  probes: DependencyProbe[];
  corsOrigins: '*' | string[];
  logger: RequestLogger;
  /** Routes outside the API, e.g. the local blob store's signed PUT target. They see the raw request body. */
  extraRouters?: Router[];
  /** Signed upload URLs name the origin each request came to (files on this server, no PUBLIC_URL set). */
  uploadUrlsAtRequestOrigin?: boolean;
  /** Refused authentications per client address and minute before 429; unlimited when unset. */
  authFailuresPerMinute?: number;
  /**
   * Behind a reverse proxy: the client address is the last X-Forwarded-For entry (the proxy's own), else the socket's;
   * the address the client reached, X-Forwarded-Host and -Proto.
   */
  trustProxy?: boolean;
  /** Request durations are recorded here and served at GET /metrics (unless `metricsOnApp` is false); none when unset. */
  metrics?: ServiceMetrics;
  /** Serve GET /metrics on this app (default); false when it has a port of its own (METRICS_PORT). */
  metricsOnApp?: boolean;
  /** Questions of one user in progress at once before 429 (MAX_QUESTIONS_PER_USER); unlimited when unset. */
  questionsPerUser?: number;
  /** What GET /api/v1/auth/config tells the browser app about signing in (default: local JWT mode). */
  authConfig?: AuthConfigJson;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>` (METRICS_TOKEN). */
  metricsToken?: string;
  /** The browser app served at `/` (server/http/web-app.ts); none when unset or not built. */
  webApp?: WebAppOptions;
}

/** Builds the Koa app; listening is the caller's business (server/main.ts, tests). */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const app = new Koa();
  // X-Forwarded-For is whatever the client wrote unless a proxy we trust appended to it: only then is it read, and
  // only its last entry (maxIpsCount 1), the one that proxy added. ctx.ip keys the per-address auth limit.
  app.proxy = deps.trustProxy ?? false;
  app.maxIpsCount = 1;
  // Koa reports errors it could not send (mostly clients that went away mid-request) here; the rest were answered.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.code === 'EPIPE' || error.message === 'aborted') return;
    deps.logger.error('unhandled HTTP error', { error: `${error.name}: ${error.message}` });
  });
  app.use(requestLog(deps.logger));
  if (deps.metrics) app.use(httpMetrics(deps.metrics));
  app.use(errorMiddleware(deps.logger));
  app.use(
    cors({
      origin: corsOrigin(deps.corsOrigins),
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: ['X-Request-Id'],
      maxAge: 600,
    }),
  );
  app.use(refuseOverCapacity);
  for (const router of deps.extraRouters ?? []) app.use(router.routes());
  if (deps.webApp) app.use(webApp(deps.webApp));
  if (deps.metrics && deps.metricsOnApp !== false) app.use(metricsRouter(deps.metrics, deps.metricsToken).routes());

  // One router per side of the auth gate, each matching a request once (its nested routers' routes are copied in).
  // The OpenAPI document is public too.
  const publicApi = new Router().use(
    healthRoutes(deps.probes, deps.logger).routes(),
    openApiRoutes().routes(),
    authConfigRoutes(deps.authConfig ?? { mode: 'local' }).routes(),
  );
  publicApi.prefix(API_PREFIX);
  app.use(publicApi.routes());

  // Everything else under the prefix needs a token, known route or not (an unknown route says 401 before 404).
  const limit = deps.authFailuresPerMinute ? new AuthFailureLimit(deps.authFailuresPerMinute) : undefined;
  const auth = bearerAuth(deps.identity, limit);
  const parseJson = koaBody({
    json: true, jsonLimit: JSON_BODY_LIMIT, urlencoded: false, text: false, multipart: false, onError: rejectRequestBody,
  });
  app.use(async (ctx: Context, next: Next) => {
    if (!isApiPath(ctx.path)) return next();
    if (ctx.method === 'OPTIONS') return next();
    // koa-body reads POST, PUT and PATCH bodies only (its default parsedMethods): other requests need not enter it.
    await auth(ctx, () => (BODY_METHODS.has(ctx.method) ? parseJson(ctx, next) : next()));
  });
  const admission = deps.questionsPerUser
    ? new QuestionAdmission(deps.questionsPerUser, () => deps.metrics?.questionRefusals.inc({ reason: 'per_user_limit' }))
    : undefined;
  const ingest = ingestRoutes(deps.docChat, { uploadUrlsAtRequestOrigin: deps.uploadUrlsAtRequestOrigin });
  const api = new Router().use(
    sessionRoutes(deps.docChat).routes(), libraryRoutes(deps.docChat).routes(), chatRoutes(deps.docChat, deps.logger, admission).routes(), ingest.routes(),
  );
  api.prefix(API_PREFIX);
  app.use(api.routes());
  return app;
}

/** A request the client limits refused (server/http/client-limits.ts): 503 before any route, with CORS headers. */
async function refuseOverCapacity(ctx: Context, next: Next): Promise<void> {
  const refusal = requestRefusal(ctx.req);
  if (!refusal) return next();
  if (refusal.closeConnection) ctx.set('Connection', 'close');
  throw new OverCapacityError(refusal.message);
}

function corsOrigin(origins: '*' | string[]) {
  if (origins === '*') return '*';
  const allowed = new Set(origins);
  // An origin not on the list gets no CORS headers, so the browser blocks it.
  return (ctx: Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : '');
}
