/**
 * The rate-limiter port of the gateway (docs/gateway.md, "Rate limits"): counts a request against a key within a
 * fixed window. infrastructure/gateway implements it with rate-limiter-flexible over a store shared by every process
 * that serves the API (node:cluster primary, PostgreSQL or Redis).
 */

/** At most `points` requests per `windowSeconds`. */
export interface RateLimit {
  readonly points: number;
  readonly windowSeconds: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request against `key` under `limit`; refused once the window's points are spent. */
  consume(key: string, limit: RateLimit): Promise<RateDecision>;
  /** Closes what it holds (connections, listeners). */
  stop(): Promise<void>;
}
