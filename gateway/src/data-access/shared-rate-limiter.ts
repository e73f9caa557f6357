import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Knex } from '@rental/db';
import type { RateDecision, RateLimit, RateLimiter } from '../domain/ports';
import { UNLIMITED, windowSeconds } from '../domain/rate-limiter';

/**
 * A limit shared by every gateway replica through one row per key in gateway.rate_limits. The
 * hot path stays cheap: a key that has spent its budget is refused from memory until its window
 * ends (no query), and while Postgres is unreachable each replica counts on its own (the
 * insurance limiter) instead of failing requests.
 */
export function sharedRateLimiter(db: Knex, schema: string, scope: 'key' | 'address', limit: RateLimit): RateLimiter {
  if (limit.perSecond <= 0) return UNLIMITED;
  const points = limit.burst;
  const duration = windowSeconds(limit);
  const limiter = new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    schemaName: schema,
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: scope,
    points,
    duration,
    inMemoryBlockOnConsumed: points,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${scope}-insurance`, points, duration }),
  });
  return {
    take: (key) => limiter.consume(key).then(
      (): RateDecision => ({ allowed: true }),
      (refusal: unknown): RateDecision => {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      },
    ),
  };
}
