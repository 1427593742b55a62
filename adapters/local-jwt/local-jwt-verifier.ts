import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { Identity, IdentityVerifier } from '../../core/ports/identity-verifier.js';

/** The audience Supabase puts in tokens of signed-in users. */
export const AUTHENTICATED_AUDIENCE = 'authenticated';

export interface LocalJwtOptions {
  /** Longest an accepted token is answered from memory without checking its signature again; never past its exp. */
  cacheTtlMs?: number;
  /** Most tokens remembered at once (the least recently used are forgotten first). */
  maxCacheEntries?: number;
  now?: () => number;
}

interface AcceptedToken {
  userId: string;
  /** Epoch ms: the earlier of the token's exp and the cache TTL. */
  until: number;
}

/**
 * Verifies HS256 JWTs shaped like the identity provider's (sub = user id, exp, aud 'authenticated') with a shared
 * secret, without asking anyone: the embedded default, and what a Supabase project's legacy JWT secret allows.
 * A client sends the same token with every request, and checking it (HMAC through WebCrypto, claims) was a sixth of
 * a cheap request's time: accepted tokens are remembered by their exact text, bounded, until their exp and for at
 * most a minute. The key never changes while the process runs, so a remembered answer is the one a new check would
 * give. Refusals are never remembered: a bad token is checked every time (the per-address limit bounds that).
 */
export class LocalJwtVerifier implements IdentityVerifier {
  /** Imported once as a WebCrypto key: given raw bytes, jose would import them again on every verification. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  private readonly accepted: LRUCache<string, AcceptedToken>;
  private readonly cacheTtlMs: number;
  private readonly now: () => number;

  constructor(secret: string, options: LocalJwtOptions = {}) {
    this.cacheTtlMs = options.cacheTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.accepted = new LRUCache({ max: options.maxCacheEntries ?? 10_000 });
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    this.key.catch(() => {}); // a failed import surfaces at verify(), not as an unhandled rejection now
  }

  async verify(token: string): Promise<Identity> {
    const remembered = this.accepted.get(token);
    if (remembered && remembered.until > this.now()) return { userId: remembered.userId };
    if (remembered) this.accepted.delete(token);
    try {
      const checkedAt = this.now();
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'], audience: AUTHENTICATED_AUDIENCE, currentDate: new Date(checkedAt),
      });
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new UnauthenticatedError();
      if (payload.exp === undefined) throw new UnauthenticatedError(); // tokens must expire
      // jose accepts while now < exp (whole seconds): exp * 1000 ms is never later than that.
      this.accepted.set(token, { userId: payload.sub, until: Math.min(payload.exp * 1000, checkedAt + this.cacheTtlMs) });
      return { userId: payload.sub };
    } catch (error) {
      if (error instanceof UnauthenticatedError) throw error;
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw new UnauthenticatedError(undefined, { cause: error });
      throw error;
    }
  }

  /** Whether `token` would be answered from memory now (for tests and diagnostics). */
  remembers(token: string): boolean {
    const remembered = this.accepted.peek(token);
    return remembered !== undefined && remembered.until > this.now();
  }

  /** Tokens held in memory, including ones past their time that were not looked up since. */
  get rememberedCount(): number {
    return this.accepted.size;
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
