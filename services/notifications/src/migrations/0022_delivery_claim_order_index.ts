import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0022_perf18_claim_order_index';

/**
 * The claim reads pending deliveries in (next_attempt_at, id) order. On next_attempt_at alone the
 * planner took a bitmap scan and sorted, which visits every index entry a completed delivery
 * left behind until vacuum (tens of thousands under load, each claim); in this order a plain
 * index scan stops after the rows it needs and marks the dead entries it passes, so the next
 * claim skips them.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw("CREATE INDEX deliveries_due_order ON deliveries (next_attempt_at, id) WHERE status = 'pending'");
  await db.raw('DROP INDEX deliveries_due');
}

export async function down(db: Knex): Promise<void> {
  await db.raw("CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'");
  await db.raw('DROP INDEX deliveries_due_order');
}
