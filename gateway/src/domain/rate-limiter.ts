/**
 * A budget of requests per key (an API key's hash, or a client address for attempts without a
 * valid key): `burst` requests per window of burst / perSecond seconds. The budgets live in
 * Postgres (data-access/shared-rate-limiter.ts), so every gateway replica draws on the same one.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

/** The window a limit is counted in: long enough that `burst` requests refill at `perSecond`. */
export function windowSeconds(limit: RateLimit): number {
  return Math.max(1, Math.ceil(limit.burst / limit.perSecond));
}

/** A limit of 0 requests per second switches limiting off. */
export const UNLIMITED: RateLimiter = { take: async () => ({ allowed: true }) };
