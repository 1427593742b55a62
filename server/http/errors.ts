import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { DomainError, InsufficientStorageError, UpstreamUnavailableError, type ErrorCode } from '../../core/domain/errors.js';
import type { Logger } from '../../core/ports/logger.js';

/**
 * The error bodies differ by route (spec §7): chat answers carry `success: false`, session creation carries both
 * `success` and `code`, chat deletion says "Session deletion failed", the rest `error` and `code`.
 */
export type ErrorShape = 'default' | 'chat' | 'session-create' | 'clear-chat';

/**
 * The route's error shape from method and path alone, so failures before the handler (authentication, body parsing)
 * get it too. Mirrors the routers' paths, which match case-insensitively and with trailing slashes.
 */
export function errorShapeOf(method: string, path: string): ErrorShape {
  if (method === 'POST' && /^\/api\/v1\/chat\/completions\/*$/i.test(path)) return 'chat';
  if (method === 'POST' && /^\/api\/v1\/session\/+$/i.test(path)) return 'session-create';
  if (method === 'DELETE' && /^\/api\/v1\/chat\/[^/]+\/*$/i.test(path)) return 'clear-chat';
  return 'default';
}

/** A request body the JSON parser refused (4xx from co-body, raw-body or inflation): the client's fault. */
export class RequestBodyError extends Error {
  constructor(
    readonly status: number,
    options: { cause: unknown },
  ) {
    super('request body refused', options);
    this.name = 'RequestBodyError';
  }
}

/**
 * koa-body's onError: tags the parser's own 4xx failures. Tagged at the source because co-body's malformed-JSON
 * SyntaxError and inflation's 415 carry only `status` (no `type`/`expose`), and a `status` alone proves nothing.
 * zlib's errors (a Content-Encoding body that does not decompress) carry no status but are the client's too.
 */
export function rejectRequestBody(error: Error): never {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) throw new RequestBodyError(status, { cause: error });
  if (isZlibError(error)) throw new RequestBodyError(400, { cause: error });
  throw error;
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/** An HTTP-level refusal to serve this client for a while (429), e.g. too many failed authentications. */
export class TooManyRequestsError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'TooManyRequestsError';
  }
}

/**
 * A cap on connections (per address or in all) or, behind a trusted proxy, on one address's requests in progress:
 * 503 with Retry-After, the plain `{ error }` body on every route (client-limits.ts decides, before any route).
 */
export class OverCapacityError extends Error {
  readonly retryAfterSeconds = 1;

  constructor(message: string) {
    super(message);
    this.name = 'OverCapacityError';
  }
}

const STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  QUOTA_EXCEEDED: 413,
  LIMIT_REACHED: 429,
  UPSTREAM_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
};

export const UNAUTHORIZED_BODY = { error: 'Unauthorized Access' };

/**
 * Retry-After (seconds) of a 503 for a dependency that did not answer: a restarted database or store is usually back
 * within seconds, and the service reconnects by itself, so a client may simply ask again after this long.
 */
export const UPSTREAM_RETRY_AFTER_SECONDS = 5;

export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const shape = errorShapeOf(ctx.method, ctx.path);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      }
    } catch (error) {
      const { status, body } = errorResponse(error, shape);
      // Not the client's doing: an outage (5xx) or any error that is neither a domain error nor a refused request,
      // including the ones answered 400 "Session deletion failed". A client's mistake (4xx) is info: anyone can
      // send those, and they must not flood the error log.
      const expected = error instanceof DomainError || error instanceof RequestBodyError || error instanceof TooManyRequestsError
        || error instanceof OverCapacityError;
      // A full disk refuses every upload with 507: the watcher logs the condition once (DiskSpace), not each refusal.
      const outage = status >= 500 && !(error instanceof InsufficientStorageError);
      if (outage || !expected) {
        logger.error('request failed', {
          requestId, method: ctx.method, path: ctx.path, status,
          error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
        });
      } else if (!ctx.headerSent) {
        // (Already answered, e.g. by the body timeout's 408, which logs its own line: nothing to add.)
        logger.info('request refused', { requestId, method: ctx.method, path: ctx.path, status, error: refusalReason(error) });
      }
      if (error instanceof TooManyRequestsError || error instanceof OverCapacityError) ctx.set('Retry-After', String(error.retryAfterSeconds));
      if (error instanceof UpstreamUnavailableError) ctx.set('Retry-After', String(UPSTREAM_RETRY_AFTER_SECONDS));
      ctx.status = status;
      ctx.body = body;
    }
  };
}

/** The status and body an error gets on a route of this shape (also the `error` event of a streamed answer). */
export function errorResponse(error: unknown, shape: ErrorShape): { status: number; body: Record<string, unknown> } {
  if (error instanceof DomainError) {
    const status = STATUS[error.code];
    if (error.code === 'UNAUTHENTICATED') return { status, body: UNAUTHORIZED_BODY };
    if (error instanceof UpstreamUnavailableError) {
      return { status, body: shaped(shape, 'Service Unavailable', 'UPSTREAM_UNAVAILABLE', { unavailable: error.dependency }) };
    }
    // The spec's one text for a chat deletion that could not be completed.
    if (shape === 'clear-chat' && error.code !== 'NOT_FOUND') return { status: 400, body: { error: 'Session deletion failed' } };
    return { status, body: { error: error.message } };
  }
  if (error instanceof RequestBodyError) {
    const message = isZlibError(error.cause) ? 'Request body could not be decompressed' : bodyParserMessage(error.status);
    return { status: error.status === 413 ? 413 : 400, body: { error: message } };
  }
  if (error instanceof TooManyRequestsError) return { status: 429, body: shaped(shape, error.message, 'RATE_LIMITED') };
  if (error instanceof OverCapacityError) return { status: 503, body: { error: error.message } };
  if (shape === 'clear-chat') return { status: 400, body: { error: 'Session deletion failed' } };
  return { status: 500, body: shaped(shape, 'Internal Server Error', 'INTERNAL') };
}

function shaped(shape: ErrorShape, error: string, code: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (shape === 'chat') return { success: false, error };
  if (shape === 'session-create') return { success: false, error, code };
  return { error, code, ...extra };
}

/** One line on why a request was refused: the error, or for a refused body what the parser said. */
function refusalReason(error: unknown): string {
  const cause = error instanceof RequestBodyError ? error.cause : error;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

function bodyParserMessage(status: number): string {
  if (status === 413) return 'Request body is too large';
  if (status === 415) return 'Unsupported request body encoding'; // a charset or Content-Encoding the parser lacks
  return 'Malformed JSON body';
}
