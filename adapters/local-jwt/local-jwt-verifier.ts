import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { Identity, IdentityVerifier } from '../../core/ports/identity-verifier.js';

/** The audience Supabase puts in tokens of signed-in users. */
export const AUTHENTICATED_AUDIENCE = 'authenticated';

/**
 * Verifies HS256 JWTs shaped like the identity provider's (sub = user id, exp, aud 'authenticated') with a shared
 * secret, without asking anyone: the embedded default, and what a Supabase project's legacy JWT secret allows.
 */
export class LocalJwtVerifier implements IdentityVerifier {
  /** Imported once as a WebCrypto key: given raw bytes, jose would import them again on every verification. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(secret: string) {
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    this.key.catch(() => {}); // a failed import surfaces at verify(), not as an unhandled rejection now
  }

  async verify(token: string): Promise<Identity> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], audience: AUTHENTICATED_AUDIENCE });
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new UnauthenticatedError();
      if (payload.exp === undefined) throw new UnauthenticatedError(); // tokens must expire
      return { userId: payload.sub };
    } catch (error) {
      if (error instanceof UnauthenticatedError) throw error;
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw new UnauthenticatedError(undefined, { cause: error });
      throw error;
    }
  }
}

/** Signs a token the way the provider would, for `npm run token` and tests. */
export function signLocalToken(secret: string, userId: string, options: { expiresInSeconds?: number; audience?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(options.audience ?? AUTHENTICATED_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 24 * 3600))
    .sign(new TextEncoder().encode(secret));
}
