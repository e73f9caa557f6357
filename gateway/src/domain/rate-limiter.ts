import type { RateLimit, RateLimiter } from './ports';

/** The window a limit is counted in: long enough that `burst` requests refill at `perSecond`. */
export function windowSeconds(limit: RateLimit): number {
  return Math.max(1, Math.ceil(limit.burst / limit.perSecond));
}

/**
 * Requests of a window one replica takes from Postgres at a time: a twentieth of the burst, so
 * two replicas holding their last slices unspent lose at most a tenth of it (the shared row hands
 * out smaller slices near the end, see sharedRateLimiter), while at the default 400 per window
 * one request in 20 asks Postgres.
 */
export function leaseSize(limit: RateLimit): number {
  return Math.max(1, Math.floor(limit.burst / 20));
}

/** A limit of 0 requests per second switches limiting off. */
export const UNLIMITED: RateLimiter = { take: async () => ({ allowed: true }) };
