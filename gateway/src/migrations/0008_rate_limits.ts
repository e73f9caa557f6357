import { type Knex, createRateLimitsTable } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0008_zt20_rate_limits';

/** The rate-limit budgets every gateway replica shares: `key:<sha-256 of the API key>` or `address:<client address>`, never a key itself. */
export async function up(db: Knex): Promise<void> {
  await createRateLimitsTable(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limits');
}
