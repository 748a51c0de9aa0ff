/**
 * Tokens whose signature was checked, by their exact text: a cookie sent again skips the EdDSA verification (the
 * dearest step of a request that a cache answers, such as a page image). An entry lasts at most `holdMs` and never
 * past the token's own `exp`, so an expired token still goes the whole way (and is refreshed). Revocations are not
 * cached here: the caller checks them on every request. Bounded: the oldest entries go first.
 */
export class VerifiedTokens<T> {
  private readonly map = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly max = 10_000,
    private readonly holdMs = 60_000,
  ) {}

  get(token: string, now = Date.now()): T | undefined {
    const hit = this.map.get(token);
    if (!hit) return undefined;
    if (hit.until <= now) {
      this.map.delete(token);
      return undefined;
    }
    return hit.value;
  }

  /** `exp`: the token's expiry in epoch seconds (undefined: only `holdMs` bounds it). */
  set(token: string, value: T, exp: number | undefined, now = Date.now()): void {
    const until = Math.min(now + this.holdMs, exp === undefined ? Number.POSITIVE_INFINITY : exp * 1000);
    if (until <= now) return;
    this.map.delete(token);
    this.map.set(token, { value, until });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
