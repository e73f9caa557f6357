import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one request of `key`'s budget; refused when the budget of the current window is spent. */
  take(key: string): Promise<RateDecision>;
}

export interface SharedRateLimit {
  /** The service's schema, holding `rate_limits` in rate-limiter-flexible's layout (key, points, expire). */
  schema: string;
  /** This budget's part of the table: keys are `<prefix>:<key>`. */
  prefix: string;
  /** Requests one key may make in a window. */
  points: number;
  windowSeconds: number;
}

/** The table of `sharedRateLimiter`'s budgets in the service's schema (rate-limiter-flexible's layout), for a migration. */
export async function createRateLimitsTable(db: Knex): Promise<void> {
  await db.schema.createTable('rate_limits', (table) => {
    // `<prefix>:<key>`; a key that is a secret (an API key) is hashed by the caller first.
    table.string('key', 255).primary();
    table.integer('points').notNullable().defaultTo(0);
    table.bigInteger('expire');
  });
}

/**
 * A budget shared by every replica through one row per key in `<schema>.rate_limits`, counted in
 * fixed windows. A key that has spent its budget is refused from memory until its window ends (no
 * query), and while Postgres is unreachable each replica counts on its own (the insurance limiter)
 * instead of failing requests.
 */
export function sharedRateLimiter(db: Knex, limit: SharedRateLimit): RateLimiter {
  const { points, windowSeconds: duration, prefix } = limit;
  const limiter = new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    schemaName: limit.schema,
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: prefix,
    points,
    duration,
    inMemoryBlockOnConsumed: points,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}-insurance`, points, duration }),
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
