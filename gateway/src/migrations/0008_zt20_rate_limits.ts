import { type Knex, createRateLimitsTable } from '@rental/db';

/** The rate-limit budgets every gateway replica shares: `key:<sha-256 of the API key>` or `address:<client address>`, never a key itself. */
export async function up(db: Knex): Promise<void> {
  await createRateLimitsTable(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limits');
}
