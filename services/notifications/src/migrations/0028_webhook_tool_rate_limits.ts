import { type Knex, createRateLimitsTable } from '@rental/db';

/** The partners' budgets of test events and redeliveries, shared by every replica: `test_event:<partner id>`, `redelivery:<partner id>`. */
export async function up(db: Knex): Promise<void> {
  await createRateLimitsTable(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limits');
}
