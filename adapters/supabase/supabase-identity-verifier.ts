import { createHash } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { UnauthenticatedError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { Identity, IdentityVerifier } from '../../core/ports/identity-verifier.js';

export interface SupabaseIdentityOptions {
  url: string;
  anonKey: string;
  /** Longest a positive answer is reused; never past the token's exp. */
  cacheTtlMs?: number;
  /** How long a refused token is refused without asking again. */
  refusalCacheTtlMs?: number;
  maxCacheEntries?: number;
  now?: () => number;
}

interface CacheEntry {
  userId: string;
  expiresAt: number;
}

/**
 * Resolves tokens by asking the Supabase project (auth.getUser), as the spec says the server does. Answers are cached
 * per token hash: positive ones for at most 60 s (and never past exp), refusals briefly (30 s), so a replayed bogus
 * token costs one call; concurrent checks of one token share one call, so a client's burst costs one round trip.
 * The provider's own troubles (down, 5xx, 429 rate limiting) are never cached and surface as unavailable (503).
 * Refusals are kept apart from accepted tokens, so a flood of bogus tokens cannot push real users out of the cache.
 */
export class SupabaseIdentityVerifier implements IdentityVerifier {
  private readonly client: SupabaseClient;
  private readonly accepted = new Map<string, CacheEntry>();
  /** Token hash → when the refusal may be asked about again. */
  private readonly refused = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<Identity>>();
  private readonly ttlMs: number;
  private readonly refusalTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: SupabaseIdentityOptions) {
    this.client = createClient(options.url, options.anonKey, {
      // Realtime (never used here) takes Node's global WebSocket (Node >= 22), so no transport is passed.
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    this.ttlMs = options.cacheTtlMs ?? 60_000;
    this.refusalTtlMs = options.refusalCacheTtlMs ?? 30_000;
    this.maxEntries = options.maxCacheEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async verify(token: string): Promise<Identity> {
    const exp = expiryMs(token); // also rejects what is not a JWT at all, without a round trip
    if (exp <= this.now()) throw new UnauthenticatedError();
    const key = createHash('sha256').update(token).digest('hex');
    const refusedUntil = this.refused.get(key);
    if (refusedUntil !== undefined && refusedUntil > this.now()) throw new UnauthenticatedError();
    if (refusedUntil !== undefined) this.refused.delete(key);
    const cached = this.accepted.get(key);
    if (cached && cached.expiresAt > this.now()) return { userId: cached.userId };
    if (cached) this.accepted.delete(key);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup = this.askProvider(token)
      .then((identity) => {
        this.remember(this.accepted, key, { userId: identity.userId, expiresAt: Math.min(this.now() + this.ttlMs, exp) });
        return identity;
      })
      .catch((error: unknown) => {
        if (error instanceof UnauthenticatedError) this.remember(this.refused, key, Math.min(this.now() + this.refusalTtlMs, exp));
        throw error;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  /** Readiness: the auth service answers its health endpoint. */
  async check(): Promise<void> {
    const { error } = await this.client.auth.getUser('invalid.token.probe').catch((cause) => ({ error: cause }));
    if (error && isAnonKeyRefused(error)) throw anonKeyRefused(error);
    if (error && isUnavailable(error)) throw new UpstreamUnavailableError('identity provider', 'The identity provider did not answer', { cause: error });
  }

  private async askProvider(token: string): Promise<Identity> {
    let result;
    try {
      result = await this.client.auth.getUser(token);
    } catch (cause) {
      throw new UpstreamUnavailableError('identity provider', 'The identity provider did not answer', { cause });
    }
    const { data, error } = result;
    if (error) {
      if (isAnonKeyRefused(error)) throw anonKeyRefused(error);
      if (isUnavailable(error)) throw new UpstreamUnavailableError('identity provider', 'The identity provider did not answer', { cause: error });
      throw new UnauthenticatedError(undefined, { cause: error });
    }
    if (!data.user?.id) throw new UnauthenticatedError();
    return { userId: data.user.id };
  }

  private remember<T>(cache: Map<string, T>, key: string, value: T): void {
    if (cache.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(key, value);
  }
}

function expiryMs(token: string): number {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY;
  } catch (cause) {
    throw new UnauthenticatedError(undefined, { cause });
  }
}

/**
 * Supabase's gateway answers 401 `{"message":"Invalid API key"}` when SUPABASE_ANON_KEY is wrong, which auth-js
 * surfaces as an AuthApiError with status 401 and that message. That is the operator's fault, not the user's token.
 */
function isAnonKeyRefused(error: { status?: number; message?: string }): boolean {
  return error.status === 401 && /invalid api key/i.test(error.message ?? '');
}

function anonKeyRefused(cause: unknown): UpstreamUnavailableError {
  return new UpstreamUnavailableError('identity provider', 'Supabase refused the anon key (SUPABASE_ANON_KEY): "Invalid API key"', { cause });
}

/**
 * Network failures, 5xx, 429 (the provider rate-limits this server: its users' tokens are not at fault) and answers
 * auth-js could not parse (AuthUnknownError, e.g. a gateway's HTML page) are the provider's trouble, not a bad token.
 */
function isUnavailable(error: { name?: string; status?: number }): boolean {
  if (error.name === 'AuthRetryableFetchError' || error.name === 'AuthUnknownError') return true;
  return typeof error.status === 'number' && (error.status >= 500 || error.status === 429 || error.status === 0);
}
