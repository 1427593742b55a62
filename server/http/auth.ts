import type { Context, Next } from 'koa';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';

const BEARER = /^Bearer ([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=+/]*)$/;

/** Resolves `Authorization: Bearer <jwt>` to ctx.state.userId, or fails with 401 "Unauthorized Access". */
export function bearerAuth(identity: IdentityVerifier) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const header = ctx.get('Authorization');
    const match = BEARER.exec(header.trim());
    if (!match) throw new UnauthenticatedError();
    const { userId } = await identity.verify(match[1]);
    ctx.state.userId = userId;
    await next();
  };
}

export function userIdOf(ctx: Context): string {
  const userId = ctx.state.userId as string | undefined;
  if (!userId) throw new UnauthenticatedError();
  return userId;
}
