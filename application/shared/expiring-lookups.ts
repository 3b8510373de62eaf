/**
 * Lookups read from small streams (an API key, a gateway client, a party) and kept for a few seconds, so that a hot
 * request path needs no database call. `forget` makes this process see its own change (a revocation) at once; other
 * processes see it within `ttlMs`. A read that began before a `forget` does not refill the cache with what it read.
 */
import { BoundedCache } from './bounded-cache.js';

export class ExpiringLookups<K, V> {
  private readonly cache: BoundedCache<K, { value: V; until: number }>;
  /** Bumped by every forget: a read that began before it must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly load: (key: K) => Promise<V>,
    private readonly options: {
      ttlMs: number;
      maxEntries?: number;
      /** Which values to keep (default: all). Unknown keys are usually not kept: random guesses must not fill memory. */
      keep?: (value: V) => boolean;
    },
  ) {
    this.cache = new BoundedCache(options.maxEntries ?? 10_000);
  }

  async get(key: K, nowMs: number): Promise<V> {
    const hit = this.cache.get(key);
    if (hit && hit.until > nowMs) return hit.value;
    const generation = this.generation;
    const value = await this.load(key);
    if (generation === this.generation && (this.options.keep?.(value) ?? true))
      this.cache.set(key, { value, until: nowMs + this.options.ttlMs });
    return value;
  }

  forget(key: K): void {
    this.generation++;
    this.cache.delete(key);
  }
}
