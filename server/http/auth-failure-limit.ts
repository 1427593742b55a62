import { LRUCache } from 'lru-cache';

/** Addresses remembered at once: bounds memory when many addresses fail (the oldest are forgotten first). */
const MAX_ADDRESSES = 50_000;
const WINDOW_MS = 60_000;

/**
 * Counts refused authentications per client address in fixed one-minute windows (from the first failure). Once an
 * address reaches the limit it is refused (429) until its window ends, whatever token it sends: that is what keeps a
 * token sprayer from costing an identity-provider call per guess.
 */
export class AuthFailureLimit {
  private readonly failures: LRUCache<string, number>;

  constructor(
    readonly perMinute: number,
    options: { maxAddresses?: number } = {},
  ) {
    this.failures = new LRUCache({ max: options.maxAddresses ?? MAX_ADDRESSES, ttl: WINDOW_MS });
  }

  /** Whole seconds until `address` may try again; 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const count = this.failures.get(address) ?? 0;
    if (count < this.perMinute) return 0;
    return Math.max(1, Math.ceil(this.failures.getRemainingTTL(address) / 1000));
  }

  recordFailure(address: string): void {
    // noUpdateTTL: the window runs from the first failure, later ones do not extend it.
    this.failures.set(address, (this.failures.get(address) ?? 0) + 1, { noUpdateTTL: true });
  }
}
