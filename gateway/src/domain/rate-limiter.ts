import type { RateLimit, RateLimiter } from './ports';

/** The window a limit is counted in: long enough that `burst` requests refill at `perSecond`. */
export function windowSeconds(limit: RateLimit): number {
  return Math.max(1, Math.ceil(limit.burst / limit.perSecond));
}

/** A limit of 0 requests per second switches limiting off. */
export const UNLIMITED: RateLimiter = { take: async () => ({ allowed: true }) };
