import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { DomainError, UpstreamUnavailableError, type ErrorCode } from '../../core/domain/errors.js';
import type { Logger } from '../../core/ports/logger.js';

/**
 * The error bodies differ by route (spec §7): chat answers carry `success: false`, session creation carries both
 * `success` and `code`, the rest `error` and `code`. A route names its shape in ctx.state.errorShape.
 */
export type ErrorShape = 'default' | 'chat' | 'session-create' | 'clear-chat';

const STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  UPSTREAM_UNAVAILABLE: 503,
};

export const UNAUTHORIZED_BODY = { error: 'Unauthorized Access' };

export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      }
    } catch (error) {
      const shape: ErrorShape = ctx.state.errorShape ?? 'default';
      const { status, body } = toResponse(error, shape);
      if (status >= 500) {
        logger.error('request failed', {
          requestId, method: ctx.method, path: ctx.path, status,
          error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
        });
      }
      ctx.status = status;
      ctx.body = body;
    }
  };
}

function toResponse(error: unknown, shape: ErrorShape): { status: number; body: Record<string, unknown> } {
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
  const httpError = error as { status?: number; expose?: boolean; message?: string; type?: string };
  // Errors raised by Koa's body parser: malformed JSON, too large, bad encoding.
  if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
    return { status: httpError.status === 413 ? 413 : 400, body: { error: bodyParserMessage(httpError) } };
  }
  if (shape === 'clear-chat') return { status: 400, body: { error: 'Session deletion failed' } };
  return { status: 500, body: shaped(shape, 'Internal Server Error', 'INTERNAL') };
}

function shaped(shape: ErrorShape, error: string, code: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (shape === 'chat') return { success: false, error };
  if (shape === 'session-create') return { success: false, error, code };
  return { error, code, ...extra };
}

function bodyParserMessage(error: { status?: number; message?: string; type?: string }): string {
  if (error.status === 413) return 'Request body is too large';
  if (error.status === 415) return 'Unsupported request body type: send application/json';
  return 'Malformed JSON body';
}
