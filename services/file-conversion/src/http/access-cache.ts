/** A small LRU with a time limit per entry: (userId, key) → allowed, so page images cost no query when repeated. */
export class TtlLru<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    return this.entry(key, now)?.value;
  }

  /** The value and when it expires (epoch ms), or undefined. */
  entry(key: string, now = Date.now()): { value: V; expires: number } | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    if (hit.expires <= now) return undefined;
    this.map.set(key, hit); // most recent last
    return hit;
  }

  /** `ttlMs` shortens this entry's life (never lengthens it beyond the cache's limit). */
  set(key: string, value: V, now = Date.now(), ttlMs = this.ttlMs): void {
    this.map.delete(key);
    this.map.set(key, { value, expires: now + Math.min(ttlMs, this.ttlMs) });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  /** Forgets every entry whose key matches (a deleted file's images). */
  deleteWhere(test: (key: string) => boolean): void {
    for (const key of this.map.keys()) if (test(key)) this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
