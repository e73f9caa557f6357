import { type Knex, sharedRateLimiter as sharedBudget } from '@rental/db';
import type { RateLimit, RateLimiter } from '../domain/ports';
import { UNLIMITED, leaseSize, windowSeconds } from '../domain/rate-limiter';

/**
 * A limit shared by every gateway replica through one row per key in gateway.rate_limits
 * (`key:<sha-256 of the API key>` or `address:<client address>`); 0 per second switches it off.
 * Each replica leases a slice of a key's window at a time, so most requests never wait for Postgres.
 */
export function sharedRateLimiter(db: Knex, schema: string, scope: 'key' | 'address', limit: RateLimit): RateLimiter {
  if (limit.perSecond <= 0) return UNLIMITED;
  return sharedBudget(db, { schema, prefix: scope, points: limit.burst, windowSeconds: windowSeconds(limit), lease: leaseSize(limit) });
}
