import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ExpiringMap } from '@rental/expiring-map';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one request of `key`'s budget; refused when the budget of the current window is spent. */
  take(key: string): Promise<RateDecision>;
}

export interface SharedRateLimit {
  /** The service's schema, holding `rate_limits` (key, points, expire). */
  schema: string;
  /** This budget's part of the table: keys are `<prefix>:<key>`. */
  prefix: string;
  /** Requests one key may make in a window. */
  points: number;
  windowSeconds: number;
  /**
   * At most this many requests of a key's budget are taken from Postgres in one round trip and
   * spent from memory (default 1: every request asks Postgres). Near the end of a budget a
   * replica takes less (an eighth of what is left), so what one replica holds unspent when the
   * budget runs out stays small whatever the number of replicas.
   */
  lease?: number;
}

/** The table of `sharedRateLimiter`'s budgets in the service's schema, for a migration. */
export async function createRateLimitsTable(db: Knex): Promise<void> {
  await db.schema.createTable('rate_limits', (table) => {
    // `<prefix>:<key>`; a key that is a secret (an API key) is hashed by the caller first.
    table.string('key', 255).primary();
    // Requests handed out in the current window, and when it ends (epoch ms, Postgres' clock).
    table.integer('points').notNullable().defaultTo(0);
    table.bigInteger('expire');
  });
}

/** Requests of one key this process may still allow in the window that ends at `endsAt` (this process' clock). */
interface Lease {
  tokens: number;
  endsAt: number;
  /** Postgres had nothing left for this window: refuse from memory until it ends. */
  spent: boolean;
}

const ALLOWED: RateDecision = { allowed: true };
/** Keys held in memory at most; past it the leases are dropped (their unspent requests are lost, never granted twice). */
const MAX_LEASED_KEYS = 100_000;
/**
 * Hands out up to `lease` requests of the key's budget in one statement and says how long its
 * window still runs. The window starts with the first request after the last one ended; the row
 * is locked for the computation, so replicas never get more than `points` between them.
 */
const LEASE_SQL = (table: string) => `
WITH clock AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now),
prior AS (
  SELECT r.key, clock.now,
         CASE WHEN r.expire IS NULL OR r.expire <= clock.now THEN 0 ELSE r.points END AS used,
         CASE WHEN r.expire IS NULL OR r.expire <= clock.now THEN clock.now + :windowMs ELSE r.expire END AS ends
  FROM ${table} r, clock WHERE r.key = :key FOR UPDATE OF r
),
granted AS (
  SELECT key, now, used, ends,
         GREATEST(0, LEAST(:lease, GREATEST(1, (:points - used) / 8), :points - used)) AS amount
  FROM prior
)
UPDATE ${table} t SET points = granted.used + granted.amount, expire = granted.ends
FROM granted WHERE t.key = granted.key
RETURNING granted.amount AS amount, (granted.ends - granted.now)::integer AS remaining_ms`;

/**
 * A budget shared by every replica through one row per key in `<schema>.rate_limits`, counted in
 * fixed windows. Each replica leases part of a key's budget per round trip and spends it from
 * memory; a key that has spent its budget is refused from memory until its window ends (no
 * query), and while Postgres is unreachable each replica counts on its own (the insurance
 * limiter) instead of failing requests.
 */
export function sharedRateLimiter(db: Knex, limit: SharedRateLimit): RateLimiter {
  const { points, windowSeconds, prefix } = limit;
  const lease = Math.max(1, Math.floor(limit.lease ?? 1));
  const table = `"${limit.schema}".rate_limits`;
  const sql = LEASE_SQL(table);
  const leases = new ExpiringMap<string, Lease>({ ttlMs: windowSeconds * 1000, maxEntries: MAX_LEASED_KEYS });
  /** The round trip under way per key: requests arriving meanwhile wait for it instead of starting their own. */
  const renewing = new Map<string, Promise<boolean>>();
  const insurance = new RateLimiterMemory({ keyPrefix: `${prefix}-insurance`, points, duration: windowSeconds });

  const askPostgres = async (key: string): Promise<void> => {
    const row = `${prefix}:${key}`;
    const bindings = { key: row, windowMs: windowSeconds * 1000, lease, points };
    let answer = await db.raw(sql, bindings);
    if (answer.rows.length === 0) {
      // The key's first request: the row exists from now on, then the lease as always.
      await db.raw(`INSERT INTO ${table} (key, points, expire) VALUES (?, 0, 0) ON CONFLICT (key) DO NOTHING`, [row]);
      answer = await db.raw(sql, bindings);
    }
    const { amount, remaining_ms: remainingMs } = answer.rows[0] as { amount: number; remaining_ms: number };
    const endsAt = Date.now() + remainingMs;
    leases.set(key, { tokens: amount, endsAt, spent: amount === 0 }, endsAt);
  };

  /** True once a lease is in memory, false when Postgres could not be asked. */
  const renew = (key: string): Promise<boolean> => {
    const pending = renewing.get(key);
    if (pending) return pending;
    const started = askPostgres(key)
      .then(
        () => true,
        () => false,
      )
      .finally(() => renewing.delete(key));
    renewing.set(key, started);
    return started;
  };

  const byInsurance = (key: string): Promise<RateDecision> =>
    insurance.consume(key).then(
      () => ALLOWED,
      (refusal: unknown): RateDecision => {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      },
    );

  return {
    take: async (key) => {
      for (;;) {
        const held = leases.get(key);
        if (held && held.tokens > 0) {
          held.tokens -= 1;
          return ALLOWED;
        }
        if (held?.spent) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((held.endsAt - Date.now()) / 1000)) };
        // Nothing (left) in memory: lease more; requests beyond what arrives lease again.
        if (!(await renew(key))) return byInsurance(key);
      }
    },
  };
}
