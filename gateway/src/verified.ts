import { LRUCache } from 'lru-cache';

/**
 * Tokens whose signature was checked, by their exact text: a cookie sent again skips the EdDSA verification (the
 * dearest step of a request that a cache answers, such as a page image). An entry lasts at most `holdMs` and never
 * past the token's own `exp`, so an expired token still goes the whole way (and is refreshed). Revocations are not
 * cached here: the caller checks them on every request. Bounded: the least recently used entries go first.
 */
export class VerifiedTokens<T extends {}> {
  private readonly lru: LRUCache<string, T>;

  /** `clock`: where the time comes from (tests); Date.now is cheap, so it is read on every call (ttlResolution 0). */
  constructor(
    max = 10_000,
    private readonly holdMs = 60_000,
    private readonly clock: { now(): number } = Date,
  ) {
    this.lru = new LRUCache<string, T>({ max, ttl: holdMs, ttlResolution: 0, perf: clock });
  }

  get(token: string): T | undefined {
    return this.lru.get(token);
  }

  /** `exp`: the token's expiry in epoch seconds (undefined: only `holdMs` bounds it). */
  set(token: string, value: T, exp: number | undefined): void {
    const ttl = exp === undefined ? this.holdMs : Math.min(this.holdMs, exp * 1000 - this.clock.now());
    if (ttl > 0) this.lru.set(token, value, { ttl });
  }

  get size(): number {
    return this.lru.size;
  }
}
