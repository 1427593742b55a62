import type { Context, Next } from 'koa';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';
import type { AuthFailureLimit } from './auth-failure-limit.js';
import { clientKey } from './client-address.js';
import { TooManyRequestsError } from './errors.js';

const BEARER = /^Bearer ([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=+/]*)$/;

export const AUTH_RATE_LIMITED = 'Too many failed authentications from this address; try again later';

/**
 * Resolves `Authorization: Bearer <jwt>` to ctx.state.userId, or fails with 401 "Unauthorized Access". With a limit,
 * every refusal counts against the client (ctx.ip, see clientKey), and a client over it gets 429 before its token is
 * looked at, so it costs no identity-provider call.
 */
export function bearerAuth(identity: IdentityVerifier, limit?: AuthFailureLimit) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const client = clientKey(ctx.ip);
    const retryAfter = limit?.retryAfterSeconds(client) ?? 0;
    if (retryAfter > 0) throw new TooManyRequestsError(AUTH_RATE_LIMITED, retryAfter);
    let userId: string;
    try {
      const match = BEARER.exec(ctx.get('Authorization').trim());
      if (!match) throw new UnauthenticatedError();
      ({ userId } = await identity.verify(match[1]));
    } catch (error) {
      if (error instanceof UnauthenticatedError) limit?.recordFailure(client);
      throw error;
    }
    ctx.state.userId = userId;
    await next();
  };
}

export function userIdOf(ctx: Context): string {
  const userId = ctx.state.userId as string | undefined;
  if (!userId) throw new UnauthenticatedError();
  return userId;
}
