import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0006_customer17_customer_links';

/**
 * The customer's side and the clock: customer links (only the token's hash is kept), when the
 * customer was last mailed about the review (link or reminder), the clock's once-only marks of
 * overdue notices, and the indexes the scheduler's tick reads by.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('customer_links', (table) => {
    table.bigIncrements('id');
    table.string('financing_case_id', 26).notNullable().references('id').inTable('financing_cases').onDelete('CASCADE');
    table.string('quote_id', 26).notNullable();
    // SHA-256 of the token, hex: the token itself is only in the customer's mail.
    table.string('token_hash', 64).notNullable().unique();
    table.text('email');
    // A link of a checkout with submitFinancing: status and open requests, no actions.
    table.boolean('view_only').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('invalidated_at', { useTz: true });
    // replaced (a newer link), canceled or expired (the review expired)
    table.string('invalidated_reason', 20);
    table.index(['financing_case_id', 'id']);
  });

  await db.schema.alterTable('quotes', (table) => {
    // When the customer was last mailed about the review (the link or a reminder).
    table.timestamp('review_mailed_at', { useTz: true });
  });
  await db.raw("CREATE INDEX quotes_review_reminder_due ON quotes (review_mailed_at) WHERE status = 'in_review'");
  await db.raw("CREATE INDEX quotes_review_expiry_due ON quotes (in_review_since) WHERE status = 'in_review'");

  // One overdue notice per requested item, whichever replica's tick saw it first.
  await db.schema.createTable('overdue_notices', (table) => {
    table.string('item_type', 20).notNullable();
    table.integer('item_id').notNullable();
    table.string('financing_case_id', 26).notNullable();
    table.timestamp('notified_at', { useTz: true }).notNullable();
    table.primary(['item_type', 'item_id']);
  });

  // The scheduler's tick runs in one replica at a time: the holder renews its lease each tick.
  await db.schema.createTable('scheduler_leases', (table) => {
    table.string('name', 64).primary();
    table.string('holder', 128).notNullable();
    table.timestamp('lease_until', { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('scheduler_leases');
  await db.schema.dropTable('overdue_notices');
  await db.raw('DROP INDEX IF EXISTS quotes_review_expiry_due');
  await db.raw('DROP INDEX IF EXISTS quotes_review_reminder_due');
  await db.schema.alterTable('quotes', (table) => {
    table.dropColumn('review_mailed_at');
  });
  await db.schema.dropTable('customer_links');
}
