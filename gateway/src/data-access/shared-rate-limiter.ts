import { type Knex, sharedRateLimiter as sharedBudget } from '@rental/db';
import type { RateLimit, RateLimiter } from '../domain/ports';
import { UNLIMITED, windowSeconds } from '../domain/rate-limiter';

/**
 * A limit shared by every gateway replica through one row per key in gateway.rate_limits
 * (`key:<sha-256 of the API key>` or `address:<client address>`); 0 per second switches it off.
 */
export function sharedRateLimiter(db: Knex, schema: string, scope: 'key' | 'address', limit: RateLimit): RateLimiter {
  if (limit.perSecond <= 0) return UNLIMITED;
  return sharedBudget(db, { schema, prefix: scope, points: limit.burst, windowSeconds: windowSeconds(limit) });
}
