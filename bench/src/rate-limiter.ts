import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { connectDatabase, sharedRateLimiter } from '@rental/db';
import { runDate } from '@rental/testkit';
import { report } from './report';

/**
 * The gateway's per-key limit alone, on the same database in the same run: rate-limiter-flexible's
 * Postgres store, which the gateway used until issue 31 (one row update per request), against
 * the leased limiter (a twentieth of the window per round trip), one key, 20 takes in flight, a
 * budget never reached (as BENCH_RATE_LIMITS), in turns.
 */
const TURNS = 3;
const SECONDS = 3;
const IN_FLIGHT = 20;
const POINTS = 2_000_000;
const WINDOW_SECONDS = 2;
const SCHEMA = 'bench_rate_limiter';

async function drive(take: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() < end) {
        await take();
        done += 1;
      }
    }),
  );
  return Math.round(done / SECONDS);
}

async function main(): Promise<void> {
  const db = connectDatabase({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', schema: SCHEMA, poolMax: 3 });
  try {
    await db.raw(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await db.raw(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
    const before = new RateLimiterPostgres({
      storeClient: db,
      storeType: 'knex',
      schemaName: SCHEMA,
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: 'before',
      points: POINTS,
      duration: WINDOW_SECONDS,
      inMemoryBlockOnConsumed: POINTS,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'before-insurance', points: POINTS, duration: WINDOW_SECONDS }),
    });
    const leased = sharedRateLimiter(db, { schema: SCHEMA, prefix: 'leased', points: POINTS, windowSeconds: WINDOW_SECONDS, lease: POINTS / 20 });
    const lines = ['| turn | rate-limiter-flexible, Postgres store: takes/s | leased: takes/s |', '| --- | ---: | ---: |'];
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const old = await drive(() => before.consume('key'));
      const now = await drive(() => leased.take('key'));
      lines.push(`| ${turn} | ${old} | ${now} |`);
    }
    report(
      'Rate limiter alone',
      [
        `Command: \`npm run bench:rate-limiter\` (${runDate()}). One key, ${IN_FLIGHT} takes in flight for ${SECONDS} s per row, a budget of ${POINTS} per ${WINDOW_SECONDS} s window (never reached), a pool of 3 connections; the two limiters in turn on the same table layout.`,
        '',
        ...lines,
      ].join('\n'),
    );
  } finally {
    await db.raw(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:rate-limiter failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
